/* Seeding of the bodies (docs/bodies.md, "Seeding").  One lattice of sites, each sized for
 * the largest body (its exclusion box: the bounding cube for random orientation, the
 * bounding box for an aligned one), tiles the region; a site holds one body of the largest
 * family or a sub-lattice of slots of a smaller one.  Body l of family f sits in slot
 * l mod K_f of that family's site l / K_f, displaced and rotated by a counter-based hash of
 * (seed, f, l); it never leaves its slot, so bodies cannot overlap.  Where no lattice holds
 * the families, or one keeps to a radial band, they are packed at random instead
 * (src/bodies/packing.h; docs/bodies.md, "Random packing"), over the run's ranks (bodies_pack),
 * each keeping the bodies near its block for bodies_near. */
#include "src/bodies/seeding.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/portable.h"
#include "src/bodies/packing.h"
#include "src/bodies/random.h"


static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (err && errlen) vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return 1;
}

/* ---- keys for messages --------------------------------------------------------------- */

static const char *size_key(int kind)
{
  static const char *const keys[BODY_KINDS] = {"rbc.diameter", "platelet.semi_axes",
                                               "sphere.radius", "ellipsoid.semi_axes"};
  return keys[kind];
}

static void family_key(const efsi_body_family *f, char *key, size_t len)
{
  const char *what = f->count > 0 ? "count" : f->kind == BODY_RBC ? "hematocrit" : "fraction";
  snprintf(key, len, "%s.%s", shape_name(f->kind), what);
}

typedef struct {
  int nfam;
  long count[EFSI_MAX_FAMILIES];       /* bodies of each family */
  long first_id[EFSI_MAX_FAMILIES];
  double half[EFSI_MAX_FAMILIES][3];   /* exclusion box half-extents along lab x, y, z */
  int slots[EFSI_MAX_FAMILIES][3];     /* slots per site along x, y, z */
  long per_site[EFSI_MAX_FAMILIES];    /* slots used per site (in a lumen: where all fit) */
  long sites_of[EFSI_MAX_FAMILIES];    /* ceil(count / per_site) */
  long first_site[EFSI_MAX_FAMILIES];  /* start of the family's range of permuted sites */
  long seeded, needed;                 /* bodies, sites they need */
  double emax[3];                      /* a site's exclusion half-extents */
  double rmax;                         /* largest bounding radius */
  double usable[3], origin[3], spacing[3];
  int n[3], wraps[3];                  /* sites along each axis; periodic lattice axes */
  int lumen;
  double axis[2], radius;              /* lumen axis (y, z) and radius less one cell */
  long valid;                          /* valid sites */
  long mult, shift;                    /* site permutation q = (mult t + shift) mod needed */
} lattice;

void body_aligned_frame(int orientation, double frame[3][3])
{
  const int a = orientation - 1;       /* lab axis of the body's symmetry axis */
  memset(frame, 0, 9 * sizeof(double));
  frame[0][(a + 1) % 3] = 1;
  frame[1][(a + 2) % 3] = 1;
  frame[2][a] = 1;
}

static void family_half_extents(const efsi_body_family *f, double half[3])
{
  if (f->orientation == 0) {
    half[0] = half[1] = half[2] = shape_bounding_radius(f->kind, f->size);
    return;
  }
  double e[3], frame[3][3];
  shape_half_extents(f->kind, f->size, e);
  body_aligned_frame(f->orientation, frame);
  for (int d = 0; d < 3; d++)
    half[d] = fabs(frame[0][d]) * e[0] + fabs(frame[1][d]) * e[1] + fabs(frame[2][d]) * e[2];
}

/* Does a body of family f centred at (dy, dz) from the tube's axis stay in the lumen? */
static int fits_lumen(const lattice *L, const efsi_body_family *fam, int f, double dy,
                      double dz)
{
  if (fam[f].orientation == 0) return hypot(dy, dz) + L->half[f][1] <= L->radius;
  const double y = fabs(dy) + L->half[f][1], z = fabs(dz) + L->half[f][2];
  return y * y + z * z <= L->radius * L->radius;
}

/* Free displacement of family f's bodies in a slot of a site of size `spacing` along d. */
static double slot_freedom(const lattice *L, int f, int d, double spacing)
{
  return fmax(0.5 * spacing / L->slots[f][d] - L->half[f][d], 0);
}

/* The point of [c - w, c + w] nearest to 0. */
static double nearest_to_axis(double c, double w)
{
  return c - w > 0 ? c - w : c + w < 0 ? c + w : 0;
}

/* Does family f's slot (b, c) (along y, z) of lumen site (j, k) have a place where its body
 * fits?  The place to test: the point of the slot's free rectangle nearest the axis. */
static int slot_fits(const lattice *L, const efsi_body_family *fam, int f, long j, long k,
                     int b, int c, double sy, double sz)
{
  if (!L->lumen) return 1;
  const double y = L->origin[1] + (j + (b + 0.5) / L->slots[f][1]) * sy - L->axis[0];
  const double z = L->origin[2] + (k + (c + 0.5) / L->slots[f][2]) * sz - L->axis[1];
  return fits_lumen(L, fam, f, nearest_to_axis(y, slot_freedom(L, f, 1, sy)),
                    nearest_to_axis(z, slot_freedom(L, f, 2, sz)));
}

static long fitting_slots(const lattice *L, const efsi_body_family *fam, int f, long j, long k,
                          double sy, double sz)
{
  long count = 0;
  for (int c = 0; c < L->slots[f][2]; c++)
    for (int b = 0; b < L->slots[f][1]; b++) count += slot_fits(L, fam, f, j, k, b, c, sy, sz);
  return count * L->slots[f][0];
}

/* A lumen site is valid when every family in use fits in at least one of its slots (the
 * largest family has one slot per site: its body fits). */
static int lumen_site_valid(const lattice *L, const efsi_body_family *fam, long j, long k,
                            double sy, double sz)
{
  for (int f = 0; f < L->nfam; f++)
    if (L->count[f] > 0 && fitting_slots(L, fam, f, j, k, sy, sz) == 0) return 0;
  return 1;
}

/* Valid sites of an ny x nz cross-section, and the slots per site each family can use
 * everywhere (the fewest that fit in any valid site). */
static long cross_sites(const lattice *L, const efsi_body_family *fam, int ny, int nz,
                        long usable_slots[])
{
  for (int f = 0; f < L->nfam; f++)
    usable_slots[f] = (long)L->slots[f][0] * L->slots[f][1] * L->slots[f][2];
  if (!L->lumen) return (long)ny * nz;
  const double sy = L->usable[1] / ny, sz = L->usable[2] / nz;
  long valid = 0;
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++) {
      if (!lumen_site_valid(L, fam, j, k, sy, sz)) continue;
      valid++;
      for (int f = 0; f < L->nfam; f++) {
        const long fit = fitting_slots(L, fam, f, j, k, sy, sz);
        if (fit < usable_slots[f]) usable_slots[f] = fit;
      }
    }
  return valid;
}

/* Sites the families need with these slots per site. */
static long sites_needed(const lattice *L, const long per_site[])
{
  long needed = 0;
  for (int f = 0; f < L->nfam; f++)
    if (L->count[f] > 0) needed += (L->count[f] + per_site[f] - 1) / per_site[f];
  return needed;
}

static long gcd(long a, long b)
{
  while (b) {
    const long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static int check_seeding(const efsi_seeding *s, char *err, size_t errlen)
{
  for (int d = 0; d < 3; d++)
    if (s->cells[d] <= 0 || !(s->length[d] > 0) || !isfinite(s->length[d]))
      return fail(err, errlen, "grid: cells and lengths must be positive");
  if (s->vessel) {
    const double room = fmin(s->length[1], s->length[2]);
    if (!(s->vessel_diameter > 0) || s->vessel_diameter > room)
      return fail(err, errlen, "vessel.diameter = %g: must be positive and at most the "
                  "box's y-z cross-section (%g)", s->vessel_diameter, room);
  }
  return 0;
}

static int check_family(const efsi_body_family *f, char *err, size_t errlen)
{
  const char *name = shape_name(f->kind);
  if (!name) return fail(err, errlen, "body family of unknown kind %d", f->kind);
  if (!shape_size_valid(f->kind, f->size))
    return fail(err, errlen, "%s: sizes must be positive", size_key(f->kind));
  if (f->orientation < 0 || f->orientation > 3)
    return fail(err, errlen, "%s.orientation: must be random, x, y or z", name);
  if (f->count < 0) return fail(err, errlen, "%s.count = %ld: must be >= 0", name, f->count);
  if (!(f->fraction >= 0 && f->fraction < 1)) {
    char key[64];
    family_key(f, key, sizeof key);
    return fail(err, errlen, "%s = %g: must be in [0, 1)", key, f->fraction);
  }
  if (f->count > 0 && f->fraction > 0)
    return fail(err, errlen, "%s.count and the %s's volume fraction are both given: give one",
                name, name);
  const int no_band = f->band[0] == 0 && f->band[1] == 0;
  if (!no_band && !(f->band[0] >= 0 && f->band[0] < f->band[1] && f->band[1] <= 1))
    return fail(err, errlen, "%s.radial_band = %g %g: two fractions of the lumen radius, "
                "0 <= r_lo < r_hi <= 1", name, f->band[0], f->band[1]);
  return 0;
}

/* Does family f keep its centres in a radial band? */
static int banded(const efsi_body_family *f)
{
  return f->band[1] > 0 && !(f->band[0] == 0 && f->band[1] == 1);
}

static double region_volume(const efsi_seeding *s)
{
  return s->vessel ? 0.25 * EFSI_PI * s->vessel_diameter * s->vessel_diameter * s->length[0]
                   : s->length[0] * s->length[1] * s->length[2];
}

static void region_text(const efsi_seeding *s, char *text, size_t len)
{
  if (s->vessel)
    snprintf(text, len, "a lumen of diameter %g and length %g", s->vessel_diameter,
             s->length[0]);
  else
    snprintf(text, len, "the %g x %g x %g box", s->length[0], s->length[1], s->length[2]);
}

/* The bodies of each family (from the count, or the fraction of the region), their ids
 * and exclusion boxes. */
static int plan_counts(const efsi_seeding *s, const efsi_body_family *fam, int nfam,
                       lattice *L, char *err, size_t errlen)
{
  if (check_seeding(s, err, errlen)) return 1;
  if (nfam < 0 || nfam > EFSI_MAX_FAMILIES)
    return fail(err, errlen, "at most %d body families", EFSI_MAX_FAMILIES);
  L->nfam = nfam;
  const double volume = region_volume(s);
  for (int f = 0; f < nfam; f++) {
    if (check_family(&fam[f], err, errlen)) return 1;
    const double vb = shape_volume(fam[f].kind, fam[f].size);
    L->count[f] = fam[f].count > 0 ? fam[f].count : lround(fam[f].fraction * volume / vb);
    if (fam[f].fraction > 0 && L->count[f] == 0) {
      char key[64];
      family_key(&fam[f], key, sizeof key);
      return fail(err, errlen, "%s = %g is less than one body (volume %g) in the region",
                  key, fam[f].fraction, vb);
    }
    L->first_id[f] = L->seeded;
    L->seeded += L->count[f];
    family_half_extents(&fam[f], L->half[f]);
    if (banded(&fam[f]) && !s->vessel)
      return fail(err, errlen, "%s.radial_band = %g %g: a band of the lumen needs a vessel "
                  "(vessel.shape = tube)", shape_name(fam[f].kind), fam[f].band[0],
                  fam[f].band[1]);
  }
  return 0;
}

/* A site's size (the largest exclusion box), the slots per site of every family, and the
 * region the lattice tiles (the box less one cell at walls, or the lumen's square); most[d]
 * sites fit along d.  widest[d] is the family that sets the site's size along d. */
static int plan_region(const efsi_seeding *s, const efsi_body_family *fam, lattice *L,
                       int most[3], char *err, size_t errlen)
{
  int widest[3] = {0, 0, 0};
  for (int f = 0; f < L->nfam; f++) {
    if (L->count[f] == 0) continue;
    L->rmax = fmax(L->rmax, shape_bounding_radius(fam[f].kind, fam[f].size));
    for (int d = 0; d < 3; d++)
      if (L->half[f][d] > L->emax[d]) {
        L->emax[d] = L->half[f][d];
        widest[d] = f;
      }
  }
  for (int f = 0; f < L->nfam; f++)
    for (int d = 0; d < 3; d++) {
      const double k = floor(L->emax[d] / L->half[f][d]);
      L->slots[f][d] = k < 1 ? 1 : k > 16 ? 16 : (int)k;
    }
  L->lumen = s->vessel;
  for (int d = 0; d < 3; d++) {
    const double h = s->length[d] / s->cells[d];
    L->wraps[d] = s->periodic[d] && !(L->lumen && d > 0);
    L->origin[d] = L->wraps[d] ? 0 : h;
    L->usable[d] = s->length[d] - 2 * L->origin[d];
  }
  if (L->lumen) {
    const double h = fmax(s->length[1] / s->cells[1], s->length[2] / s->cells[2]);
    L->radius = 0.5 * s->vessel_diameter - h;
    L->axis[0] = 0.5 * s->length[1];
    L->axis[1] = 0.5 * s->length[2];
    for (int d = 1; d < 3; d++) {
      L->origin[d] = L->axis[d - 1] - L->radius;
      L->usable[d] = 2 * L->radius;
    }
  }
  static const char axis_name[3] = {'x', 'y', 'z'};
  for (int d = 0; d < 3; d++) {
    if (!(L->usable[d] >= 2 * L->emax[d])) {
      const int f = widest[d];
      char value[64];
      if (fam[f].kind == BODY_RBC || fam[f].kind == BODY_SPHERE)
        snprintf(value, sizeof value, "%g", fam[f].size[0]);
      else
        snprintf(value, sizeof value, "%g %g %g", fam[f].size[0], fam[f].size[1],
                 fam[f].size[2]);
      return fail(err, errlen, "%s = %s: a body needs %g along %c (%s orientation), the "
                  "region leaves %g (bodies stay one cell off walls)", size_key(fam[f].kind),
                  value, 2 * L->emax[d], axis_name[d],
                  fam[f].orientation ? "fixed" : "random", fmax(L->usable[d], 0));
    }
    const double m = floor(L->usable[d] / (2 * L->emax[d]));
    most[d] = m > 1e6 ? 1000000 : (int)m;
  }
  return 0;
}

/* Among the lattices of ny x nz sites across and as many along x as needed, the one with
 * the largest free displacement of a site's largest body (fewest sites on a tie) among
 * those with enough valid sites. */
static void plan_search(const efsi_body_family *fam, lattice *L, const int most[3])
{
  double best = -1;
  for (int nz = 1; nz <= most[2]; nz++)
    for (int ny = 1; ny <= most[1]; ny++) {
      long per_site[EFSI_MAX_FAMILIES];
      const long cross = cross_sites(L, fam, ny, nz, per_site);
      if (cross == 0) continue;
      const long needed = sites_needed(L, per_site);
      const long nx = (needed + cross - 1) / cross;
      if (nx > most[0]) continue;
      const double spacing[3] = {L->usable[0] / nx, L->usable[1] / ny, L->usable[2] / nz};
      double slack = INFINITY;
      for (int d = 0; d < 3; d++) slack = fmin(slack, 0.5 * spacing[d] - L->emax[d]);
      const long sites = nx * cross;
      const double tie = 1e-12 * (L->usable[0] + L->usable[1] + L->usable[2]);
      if (slack > best + tie || (slack > best - tie && sites < L->valid)) {
        best = slack;
        L->n[0] = (int)nx;
        L->n[1] = ny;
        L->n[2] = nz;
        L->valid = sites;
        for (int d = 0; d < 3; d++) L->spacing[d] = spacing[d];
        for (int f = 0; f < L->nfam; f++) L->per_site[f] = per_site[f];
      }
    }
}

/* Each family's range of sites, and the permutation that spreads the families' sites over
 * the lattice: q = (mult t + shift) mod needed, mult coprime to needed. */
static void plan_sites(const efsi_seeding *s, lattice *L)
{
  for (int f = 0; f < L->nfam; f++) {
    L->sites_of[f] = L->count[f] > 0 ? (L->count[f] + L->per_site[f] - 1) / L->per_site[f] : 0;
    L->first_site[f] = L->needed;
    L->needed += L->sites_of[f];
  }
  L->mult = 1;
  if (L->needed > 1) {
    L->mult = (long)(0.6180339887498949 * L->needed);
    while (L->mult < 1 || gcd(L->mult, L->needed) != 1) L->mult++;
  }
  L->shift = (long)(random_mix64((uint64_t)s->seed ^ 0x5EEDull) % (uint64_t)L->needed);
}

/* The lattice plan: a pure function of the input, identical on every rank.  Returns
 * nonzero on a refusal; L->valid = 0 (with bodies to seed) when no lattice holds them, or a
 * family keeps to a radial band: then they are packed. */
static int plan_lattice(const efsi_seeding *s, const efsi_body_family *fam, int nfam,
                        lattice *L, char *err, size_t errlen)
{
  memset(L, 0, sizeof *L);
  int most[3];
  if (plan_counts(s, fam, nfam, L, err, errlen)) return 1;
  if (L->seeded == 0) return 0;
  if (plan_region(s, fam, L, most, err, errlen)) return 1;
  for (int f = 0; f < nfam; f++)
    if (L->count[f] > 0 && banded(&fam[f])) return 0;
  plan_search(fam, L, most);
  if (L->valid > 0) plan_sites(s, L);
  return 0;
}

/* ---- the random packing ------------------------------------------------------------------ */

/* The region of the packing (the box less one cell at walls, or the lumen less one cell),
 * the gap the drawing needs between bodies, and the families; refuses a band no centre can
 * reach. */
static int packing_input(const efsi_seeding *s, const efsi_body_family *fam, const lattice *L,
                         packing_region *r, packing_family *pf, char *err, size_t errlen)
{
  memset(r, 0, sizeof *r);
  double h[3], hmax = 0;
  for (int d = 0; d < 3; d++) {
    h[d] = s->length[d] / s->cells[d];
    r->length[d] = s->length[d];
    r->periodic[d] = s->periodic[d];
    if (d > 0 && !s->periodic[d]) hmax = fmax(hmax, h[d]);
  }
  r->wall_margin = s->vessel ? fmax(h[1], h[2]) : hmax;
  r->lumen = s->vessel;
  r->lumen_radius = 0.5 * s->vessel_diameter;
  r->seed = s->seed;
  r->band[0] = 0;
  r->band[1] = r->lumen_radius;
  double gap = 0;
  for (int f = 0; f < L->nfam; f++) {
    gap = fmax(gap, bodies_draw_gap(h, fam[f].kind, fam[f].size));
    packing_family *p = &pf[f];
    memset(p, 0, sizeof *p);
    p->kind = fam[f].kind;
    p->material = fam[f].material;
    memcpy(p->size, fam[f].size, sizeof p->size);
    p->count = L->count[f];
    p->rotates = fam[f].orientation == 0;
    if (!p->rotates) body_aligned_frame(fam[f].orientation, p->frame);
    if (L->count[f] == 0 || !banded(&fam[f])) continue;
    /* one band for the region: the families that keep to one share it */
    double e[3];
    shape_half_extents(fam[f].kind, fam[f].size, e);
    const double reach = r->lumen_radius - r->wall_margin - fmin(e[0], fmin(e[1], e[2]));
    p->banded = 1;
    r->band[0] = fam[f].band[0] * r->lumen_radius;
    r->band[1] = fmin(fam[f].band[1] * r->lumen_radius, reach);
    if (r->band[0] > reach)
      return fail(err, errlen, "%s.radial_band = %g %g: a %s's centre stays within r/(D/2) <= "
                  "%.3g (its half-thickness and one cell inside the lumen)", shape_name(p->kind),
                  fam[f].band[0], fam[f].band[1], shape_name(p->kind), reach / r->lumen_radius);
  }
  /* the drawing's gap, and a little for the rounding of the cells' sample points */
  r->gap = gap + 1e-9 * fmax(s->length[0], fmax(s->length[1], s->length[2]));
  return 0;
}

/* How the seeded bodies are placed: the lattice L, or (packed = 1) a random packing, made
 * by bodies_pack. */
typedef struct {
  lattice L;
  int packed;
  packing_region region;                  /* the packing's input */
  packing_family family[EFSI_MAX_FAMILIES];
} placement;

static int plan_placement(const efsi_seeding *s, const efsi_body_family *fam, int nfam,
                          placement *pl, char *err, size_t errlen)
{
  pl->packed = 0;
  if (plan_lattice(s, fam, nfam, &pl->L, err, errlen)) return 1;
  if (pl->L.seeded == 0 || pl->L.valid > 0) return 0;
  pl->packed = 1;
  return packing_input(s, fam, &pl->L, &pl->region, pl->family, err, errlen);
}

/* Body l of family f (site index `site` on the lattice, unwrapped). */
static void place(const lattice *L, const efsi_body_family *fam, int f, long l,
                  const long site[3], unsigned long seed, efsi_body *b)
{
  const efsi_body_family *F = &fam[f];
  /* The (l mod per_site)-th slot of the site where the body fits. */
  long r = l % L->per_site[f], slot[3] = {0, 0, 0};
  for (long at = 0;; at++) {
    slot[0] = at % L->slots[f][0];
    slot[1] = (at / L->slots[f][0]) % L->slots[f][1];
    slot[2] = at / (L->slots[f][0] * L->slots[f][1]);
    if (slot_fits(L, fam, f, site[1], site[2], (int)slot[1], (int)slot[2], L->spacing[1],
                  L->spacing[2]) && r-- == 0)
      break;
  }
  double centre[3], dmax[3];
  for (int d = 0; d < 3; d++) {
    centre[d] = L->origin[d] + (site[d] + (slot[d] + 0.5) / L->slots[f][d]) * L->spacing[d];
    dmax[d] = slot_freedom(L, f, d, L->spacing[d]);
  }
  uint64_t st = random_stream(seed, f, l);
  b->id = L->first_id[f] + l;
  b->kind = F->kind;
  b->material = F->material;
  memcpy(b->size, F->size, sizeof b->size);
  if (F->orientation == 0) {
    random_rotation(&st, b->frame);
  } else {
    body_aligned_frame(F->orientation, b->frame);
  }
  /* Uniform displacement in the slot; in a lumen, redrawn until the body fits, else the
   * place nearest the axis (it fits: the site is valid). */
  double u[3] = {0, 0, 0};
  if (L->lumen) {
    u[1] = nearest_to_axis(centre[1] - L->axis[0], dmax[1]) - (centre[1] - L->axis[0]);
    u[2] = nearest_to_axis(centre[2] - L->axis[1], dmax[2]) - (centre[2] - L->axis[1]);
  }
  for (int attempt = 0; attempt < 256; attempt++) {
    double t[3];
    for (int d = 0; d < 3; d++) t[d] = (2 * random_uniform(&st) - 1) * dmax[d];
    if (!L->lumen || fits_lumen(L, fam, f, centre[1] + t[1] - L->axis[0],
                                centre[2] + t[2] - L->axis[1])) {
      memcpy(u, t, sizeof u);
      break;
    }
  }
  for (int d = 0; d < 3; d++) b->center[d] = centre[d] + u[d];
}

static int sphere_meets_box(const double c[3], double r, const double lo[3], const double hi[3])
{
  double d2 = 0;
  for (int d = 0; d < 3; d++) {
    const double e = c[d] < lo[d] ? lo[d] - c[d] : c[d] > hi[d] ? c[d] - hi[d] : 0;
    d2 += e * e;
  }
  return d2 <= r * r;
}

typedef struct {
  efsi_body *b;
  long n, cap;
} body_list;

static void append(body_list *list, const efsi_body *b)
{
  if (list->n == list->cap) {
    list->cap = list->cap ? 2 * list->cap : 64;
    list->b = efsi_realloc(list->b, (size_t)list->cap * sizeof *list->b, "bodies near a block");
  }
  list->b[list->n++] = *b;
}

static long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Seeded bodies near [lo, hi]: the sites whose bodies' bounding spheres can reach the box. */
static void lattice_near(const lattice *L, const efsi_seeding *s, const efsi_body_family *fam,
                         const double lo[3], const double hi[3], body_list *list)
{
  int *cross = NULL;
  if (L->lumen) {
    cross = efsi_malloc((size_t)L->n[1] * L->n[2] * sizeof *cross, "lattice cross-section");
    int c = 0;
    for (int k = 0; k < L->n[2]; k++)
      for (int j = 0; j < L->n[1]; j++)
        cross[j + L->n[1] * k] =
            lumen_site_valid(L, fam, j, k, L->spacing[1], L->spacing[2]) ? c++ : -1;
  }
  long first[3], last[3];
  for (int d = 0; d < 3; d++) {
    first[d] = (long)floor((lo[d] - L->rmax - L->origin[d]) / L->spacing[d]);
    last[d] = (long)floor((hi[d] + L->rmax - L->origin[d]) / L->spacing[d]);
    if (!L->wraps[d]) {
      first[d] = first[d] < 0 ? 0 : first[d];
      last[d] = last[d] > L->n[d] - 1 ? L->n[d] - 1 : last[d];
    }
  }
  for (long k = first[2]; k <= last[2]; k++)
    for (long j = first[1]; j <= last[1]; j++)
      for (long i = first[0]; i <= last[0]; i++) {
        const long at[3] = {i, j, k};
        long site[3];
        double shift[3];
        for (int d = 0; d < 3; d++) {
          const long image = floor_div(at[d], L->n[d]);
          site[d] = at[d] - image * L->n[d];
          shift[d] = image * s->length[d];
        }
        const long c = cross ? cross[site[1] + L->n[1] * site[2]] : site[1] + L->n[1] * site[2];
        if (c < 0) continue;
        /* Bresenham: the `needed` occupied sites spread evenly over the `valid` ones. */
        const long v = site[0] + (long)L->n[0] * c;
        const long t = v * L->needed / L->valid;
        if ((v + 1) * L->needed / L->valid == t) continue;
        const long q = (L->mult * (t % L->needed) + L->shift) % L->needed;
        int f = 0;
        while (q >= L->first_site[f] + L->sites_of[f]) f++;
        for (long r = 0; r < L->per_site[f]; r++) {
          const long l = (q - L->first_site[f]) * L->per_site[f] + r;
          if (l >= L->count[f]) break;
          efsi_body b;
          place(L, fam, f, l, site, s->seed, &b);
          for (int d = 0; d < 3; d++) b.center[d] += shift[d];
          if (sphere_meets_box(b.center, shape_bounding_radius(b.kind, b.size), lo, hi))
            append(list, &b);
        }
      }
  free(cross);
}

/* Every image of body b (along periodic axes) whose bounding sphere meets [lo, hi],
 * appended to list with the given id. */
static void images_near(const efsi_seeding *s, const efsi_body *b, long id, const double lo[3],
                        const double hi[3], body_list *list)
{
  const double r = shape_bounding_radius(b->kind, b->size);
  long first[3], last[3];
  for (int d = 0; d < 3; d++) {
    first[d] = s->periodic[d] ? (long)ceil((lo[d] - r - b->center[d]) / s->length[d]) : 0;
    last[d] = s->periodic[d] ? (long)floor((hi[d] + r - b->center[d]) / s->length[d]) : 0;
  }
  for (long k = first[2]; k <= last[2]; k++)
    for (long j = first[1]; j <= last[1]; j++)
      for (long i = first[0]; i <= last[0]; i++) {
        efsi_body image = *b;
        const long shift[3] = {i, j, k};
        image.id = id;
        for (int d = 0; d < 3; d++) image.center[d] += shift[d] * s->length[d];
        if (sphere_meets_box(image.center, r, lo, hi)) append(list, &image);
      }
}

static void singles_near(const lattice *L, const efsi_seeding *s, const efsi_body *singles,
                         int nsingle, const double lo[3], const double hi[3], body_list *list)
{
  for (int j = 0; j < nsingle; j++) images_near(s, &singles[j], L->seeded + j, lo, hi, list);
}

/* Does the packing kept on this rank serve the box [lo, hi] (within rounding)? */
static int packed_serves(const efsi_seeding *s, const efsi_packed *packed, const double lo[3],
                         const double hi[3])
{
  if (!packed || !packed->done) return 0;
  for (int d = 0; d < 3; d++) {
    const double slack = 1e-9 * s->length[d];
    if (lo[d] < packed->lo[d] - slack || hi[d] > packed->hi[d] + slack) return 0;
  }
  return 1;
}

int bodies_near(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, const efsi_packed *packed,
                const double lo[3], const double hi[3], efsi_body **out, long *n)
{
  placement pl;
  body_list list = {NULL, 0, 0};
  *out = NULL;
  *n = 0;
  if (plan_placement(s, f, nfam, &pl, NULL, 0)) return 1;
  if (pl.L.seeded > 0 && pl.packed) {
    if (!packed_serves(s, packed, lo, hi)) return 1;
    for (long m = 0; m < packed->n; m++)
      images_near(s, &packed->body[m], packed->body[m].id, lo, hi, &list);
  } else if (pl.L.seeded > 0) {
    lattice_near(&pl.L, s, f, lo, hi, &list);
  }
  singles_near(&pl.L, s, singles, nsingle, lo, hi, &list);
  *out = list.b;
  *n = list.n;
  return 0;
}

/* The message of a single body that overlaps seeded body o (bounding spheres). */
static int single_overlaps(const efsi_body *b, const efsi_body *o, char *err, size_t errlen)
{
  const char *name = shape_name(b->kind);
  const double *c = b->center;
  return fail(err, errlen, "%s.center = %g %g %g: overlaps seeded %s %ld at %g %g %g (bounding "
              "spheres); change init.seed or move the %s", name, c[0], c[1], c[2],
              shape_name(o->kind), o->id, o->center[0], o->center[1], o->center[2], name);
}

/* The seeded body of `near` with the lowest id whose bounding sphere overlaps that of
 * single b (nearest periodic image); -1 when none does. */
static long first_overlap(const efsi_seeding *s, const efsi_body *b, const efsi_body *near,
                          long n)
{
  const double r = shape_bounding_radius(b->kind, b->size);
  long first = -1;
  for (long m = 0; m < n; m++) {
    const efsi_body *o = &near[m];
    const double ro = shape_bounding_radius(o->kind, o->size);
    double d2 = 0;
    for (int d = 0; d < 3; d++) {
      double e = fabs(b->center[d] - o->center[d]);
      if (s->periodic[d]) e = fmin(e, s->length[d] - e);
      d2 += e * e;
    }
    if (d2 < (r + ro) * (r + ro) && (first < 0 || o->id < first)) first = m;
  }
  return first;
}

/* A single body must lie in the region, one cell off walls, and clear of the others and of
 * the lattice's bodies (bounding spheres, nearest periodic image); a packing's bodies are
 * checked once packed (bodies_pack). */
static int check_single(const placement *pl, const efsi_seeding *s,
                        const efsi_body_family *fam, const efsi_body *singles, int j, char *err,
                        size_t errlen)
{
  const efsi_body *b = &singles[j];
  const char *name = shape_name(b->kind);
  if (!name) return fail(err, errlen, "body %d of unknown kind %d", j, b->kind);
  if (!shape_size_valid(b->kind, b->size))
    return fail(err, errlen, "%s: sizes must be positive", size_key(b->kind));
  const double r = shape_bounding_radius(b->kind, b->size);
  const double *c = b->center;
  static const char axis_name[3] = {'x', 'y', 'z'};
  for (int d = 0; d < 3; d++) {
    const double h = s->length[d] / s->cells[d];
    if (!(c[d] >= 0 && c[d] <= s->length[d]))
      return fail(err, errlen, "%s.center = %g %g %g: outside the %g x %g x %g box", name,
                  c[0], c[1], c[2], s->length[0], s->length[1], s->length[2]);
    if (s->periodic[d] && 2 * r >= s->length[d])
      return fail(err, errlen, "%s.center = %g %g %g: the %s (bounding diameter %g) does not "
                  "fit the periodic length %g along %c", name, c[0], c[1], c[2], name, 2 * r,
                  s->length[d], axis_name[d]);
    if (!s->periodic[d] && (c[d] - r < h || c[d] + r > s->length[d] - h))
      return fail(err, errlen, "%s.center = %g %g %g: the %s (bounding radius %g) comes "
                  "closer than one cell (%g) to a wall along %c", name, c[0], c[1], c[2], name,
                  r, h, axis_name[d]);
  }
  if (s->vessel) {
    const double h = fmax(s->length[1] / s->cells[1], s->length[2] / s->cells[2]);
    const double out = hypot(c[1] - 0.5 * s->length[1], c[2] - 0.5 * s->length[2]) + r;
    if (out > 0.5 * s->vessel_diameter - h)
      return fail(err, errlen, "%s.center = %g %g %g: the %s (bounding radius %g) leaves the "
                  "lumen (vessel.diameter = %g, one cell kept off the wall)", name, c[0], c[1],
                  c[2], name, r, s->vessel_diameter);
  }
  for (int i = 0; i < j; i++) {
    const double ri = shape_bounding_radius(singles[i].kind, singles[i].size);
    double d2 = 0;
    for (int d = 0; d < 3; d++) {
      double e = fabs(c[d] - singles[i].center[d]);
      if (s->periodic[d]) e = fmin(e, s->length[d] - e);
      d2 += e * e;
    }
    if (d2 < (r + ri) * (r + ri))
      return fail(err, errlen, "%s.center = %g %g %g: overlaps the %s at %g %g %g (bounding "
                  "spheres)", name, c[0], c[1], c[2], shape_name(singles[i].kind),
                  singles[i].center[0], singles[i].center[1], singles[i].center[2]);
  }
  if (pl->L.seeded == 0 || pl->packed) return 0;
  const double lo[3] = {c[0] - r, c[1] - r, c[2] - r}, hi[3] = {c[0] + r, c[1] + r, c[2] + r};
  body_list near = {NULL, 0, 0};
  lattice_near(&pl->L, s, fam, lo, hi, &near);
  const long first = first_overlap(s, b, near.b, near.n);
  const int rc = first >= 0 ? single_overlaps(b, &near.b[first], err, errlen) : 0;
  free(near.b);
  return rc;
}

int bodies_seed(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, long *total, efsi_seeding_report *report,
                char *err, size_t errlen)
{
  placement pl;
  *total = 0;
  if (report) memset(report, 0, sizeof *report);
  if (plan_placement(s, f, nfam, &pl, err, errlen)) return 1;
  for (int j = 0; j < nsingle; j++)
    if (check_single(&pl, s, f, singles, j, err, errlen)) return 1;
  *total = pl.L.seeded + nsingle;
  if (report) {
    report->packed = pl.packed;
    for (int m = 0; m < nfam && m < EFSI_MAX_FAMILIES; m++) {
      report->count[m] = pl.L.count[m];
      report->fraction[m] = pl.L.count[m] * shape_volume(f[m].kind, f[m].size) / region_volume(s);
    }
  }
  return 0;
}

/* The refusal of a packing that jammed at `scale`: the fraction (or count) of the first
 * family in use that the growth reached. */
static int jammed(const efsi_seeding *s, const efsi_body_family *fam, const lattice *L,
                  double scale, char *err, size_t errlen)
{
  int b = 0;
  while (L->count[b] == 0) b++;
  char key[64], region[128];
  family_key(&fam[b], key, sizeof key);
  region_text(s, region, sizeof region);
  const double reached = pow(scale, 3);
  if (fam[b].count > 0)
    return fail(err, errlen, "%s = %ld cannot be placed: at most about %ld with random packing "
                "in %s (with the other bodies asked)", key, fam[b].count,
                (long)floor(fam[b].count * reached), region);
  return fail(err, errlen, "%s = %g cannot be placed: at most about %.3g with random packing "
              "in %s (with the other bodies asked)", key, fam[b].fraction,
              L->count[b] * reached * shape_volume(fam[b].kind, fam[b].size) / region_volume(s),
              region);
}

/* Collective: does single j overlap a packed body?  The lowest such id over all ranks, the
 * same message everywhere. */
static int single_clear_of_packing(const efsi_seeding *s, const efsi_body *single,
                                   const efsi_packed *packed, MPI_Comm comm, char *err,
                                   size_t errlen)
{
  const long mine = first_overlap(s, single, packed->body, packed->n);
  long first = mine >= 0 ? packed->body[mine].id : LONG_MAX;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_LONG, MPI_MIN, comm));
  if (first == LONG_MAX) return 0;
  efsi_body o = {.id = first, .center = {-INFINITY, -INFINITY, -INFINITY}};
  for (long m = 0; m < packed->n; m++)
    if (packed->body[m].id == first) o = packed->body[m];
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, o.center, 3, MPI_DOUBLE, MPI_MAX, comm));
  int kind = o.center[0] > -INFINITY ? o.kind : -1;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &kind, 1, MPI_INT, MPI_MAX, comm));
  o.kind = kind;
  return single_overlaps(single, &o, err, errlen);
}

int bodies_pack(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                const efsi_body *singles, int nsingle, const efsi_decomp *d, double margin,
                efsi_packed *out, efsi_seeding_report *report, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out);
  placement pl;
  if (plan_placement(s, f, nfam, &pl, err, errlen)) return 1;
  if (!pl.packed) return 0;
  packing_result result;
  if (packing_run(&pl.region, pl.family, nfam, d, margin, &out->body, &out->n, &result))
    return jammed(s, f, &pl.L, result.scale, err, errlen);
  out->done = 1;
  for (int a = 0; a < 3; a++) {
    const double width = s->length[a] / d->dims[a];
    out->lo[a] = d->coords[a] * width - margin;
    out->hi[a] = (d->coords[a] + 1) * width + margin;
  }
  if (report) {
    report->sweeps = result.iterations;
    report->seconds = result.seconds;
    report->cpu_seconds = result.cpu_seconds;
    report->order = result.order;
    report->ranks = d->size;
    report->most_bodies = result.most_bodies;
  }
  for (int j = 0; j < nsingle; j++)
    if (single_clear_of_packing(s, &singles[j], out, d->comm, err, errlen)) {
      packed_free(out);
      return 1;
    }
  return 0;
}

void packed_free(efsi_packed *packed)
{
  free(packed->body);
  memset(packed, 0, sizeof *packed);
}

/* The cost model of a random packing (docs/bodies.md, "Cost"), measured on one core of the
 * development machine: PACK_SWEEPS sweeps of PACK_SECONDS_PER_BODY per body of the busiest
 * rank, whose box is widened by one bounding radius along each split axis (the pairs across
 * a face are computed on both sides), and PACK_SECONDS_START for the start. */
#define PACK_SWEEPS 330
#define PACK_SECONDS_PER_BODY 1.0e-4
#define PACK_SECONDS_START 0.2

double bodies_pack_estimate(const efsi_seeding *s, const efsi_body_family *f, int nfam,
                            const int dims[3])
{
  placement pl;
  if (plan_placement(s, f, nfam, &pl, NULL, 0) || !pl.packed) return 0;
  const double density = pl.L.seeded / region_volume(s);
  double box = 1;
  for (int d = 0; d < 3; d++) {
    double width = s->length[d] / dims[d];
    if (s->vessel && d > 0) width = fmin(width, s->vessel_diameter);
    box *= width + (dims[d] > 1 ? pl.L.rmax : 0);
  }
  const double bodies = fmin(density * box, (double)pl.L.seeded);
  return PACK_SWEEPS * PACK_SECONDS_PER_BODY * bodies + PACK_SECONDS_START;
}
