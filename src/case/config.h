/* All run parameters in one struct, read from the INI case file (rank 0 reads, all ranks
 * parse the same broadcast text), overridden by --set, validated in one place.  The key
 * names are efsi's public interface: docs/case-file.md documents every key and default. */
#ifndef EFSI_CONFIG_H
#define EFSI_CONFIG_H

#include <stddef.h>

#include "base/limits.h"
#include "io/voxels.h"
#include "src/case/material_models.h"

enum { BOUNDARY_PERIODIC = 0, BOUNDARY_WALL = 1 };
enum { DRIVE_PRESSURE = 0, DRIVE_FLOWRATE = 1 };
enum { PRESSURE_ACM = 0, PRESSURE_SMAC = 1 };
enum { INIT_REST = 0, INIT_TAYLOR_GREEN = 1, INIT_COUETTE = 2 };
enum { ORIENT_RANDOM = 0, ORIENT_X = 1, ORIENT_Y = 2, ORIENT_Z = 3 };
enum { VESSEL_NONE = 0, VESSEL_TUBE = 1 };
enum { DEVICE_CPU = 0, DEVICE_GPU = 1 };
/* performance.halo_path: auto, or one path forced, in decomp/halo_path.h's order (the path
 * is the value - 1) */
enum { HALO_PATH_AUTO = 0, HALO_PATH_PEER, HALO_PATH_NCCL, HALO_PATH_CUDA_AWARE_MPI,
       HALO_PATH_HOST_MPI };
enum { PHI_WENO5 = 0, PHI_THINC = 1 };
/* Keys of the schema (src/case/config_keys.c) this struct has room for, and the length of the
 * record of where each got its value (messages print at most 1000 bytes of a path). */
enum { CONFIG_MAX_KEYS = 160, CONFIG_WHERE_LEN = 1100 };
/* The output keys (docs/case-file.md, "Output"): a field list's length, the planes of the
 * slices output per direction, the highest deflate level and quantization digits. */
enum { CONFIG_TEXT_LEN = 256, CONFIG_MAX_PLANES = 16, CONFIG_DEFLATE_MAX = 9,
       CONFIG_QUANTIZE_MAX = 15 };
/* output.bodies_csv; auto writes bodies.csv for at most BODIES_CSV_AUTO_LIMIT bodies */
enum { BODIES_CSV_AUTO = 0, BODIES_CSV_YES = 1, BODIES_CSV_NO = 2, BODIES_CSV_AUTO_LIMIT = 10000 };
/* output.bodies_every when not given: the diagnostics' cadence */
#define BODIES_EVERY_DIAGNOSTICS (-2L)

/* A list of numbers of a KIND_NUMBERS key: n of them (0: not given). */
typedef struct {
  int n;
  double value[CONFIG_MAX_PLANES];
} efsi_numbers;

/* One selective NetCDF output (docs/output.md, "Selective outputs"): which fields ("all" or
 * names), how often, and how the values are stored. */
typedef struct {
  long every;                    /* steps between files; 0 = at the end only, -1 = never */
  char fields[CONFIG_TEXT_LEN];  /* "all" or names: u v w p phi_<material> bxx .. byz */
  int deflate;                   /* NetCDF-4 deflate level 0..9 (0: none) */
  int quantize;                  /* significant digits kept, 0 = exact (NetCDF >= 4.9) */
} efsi_output_keys;

/* The voxels' material: its model and, for each parameter, the values given (one for every
 * label, or one a label) and how many (0: not given, the parameter's default). */
typedef struct {
  int model;                                         /* MATERIAL_MODEL_* */
  int given[MATERIAL_PARAM_COUNT];
  double param[MATERIAL_PARAM_COUNT][EFSI_MAX_MATERIALS];
} efsi_voxel_keys;

/* A body family's material: its model and the model's parameters (material_models.h). */
typedef struct {
  int model;                             /* MATERIAL_MODEL_* */
  double param[MATERIAL_PARAM_COUNT];    /* indexed by MATERIAL_PARAM_* */
} efsi_material_keys;

typedef struct {
  char file[EFSI_PATH_LEN];      /* the case file, for messages */
  char name[EFSI_NAME_LEN];      /* case.name */

  int cells[3];                  /* grid.cells */
  double length[3];              /* grid.length */
  int ranks[3];                  /* grid.ranks (0 = MPI_Dims_create) */

  int boundary[3];               /* [0] always periodic; boundary.y, boundary.z */
  double wall_u[3][2];           /* boundary.{y,z}_{lo,hi}_u: wall speed amplitude in x */
  double wall_omega;             /* boundary.wall_omega */

  double density, viscosity;     /* fluid.density, fluid.viscosity */

  int drive_mode;                /* drive.mode */
  double pressure_gradient;      /* drive.pressure_gradient: body force per volume in +x */
  double bulk_velocity;          /* drive.bulk_velocity (flowrate mode) */

  int pressure_method;           /* pressure.method */

  int dt_auto;                   /* time.dt = auto */
  double dt;                     /* time.dt when fixed */
  double safety;                 /* time.safety */
  int unsafe;                    /* time.unsafe */
  long steps;                    /* time.steps (-1 = not given) */
  double end_time;               /* time.end_time (negative = not given) */
  double wall_limit;             /* time.wall_limit in seconds (0 = none) */

  unsigned long seed;            /* init.seed */
  double interface_width;        /* init.interface_width (cells) */
  int phi_transport;             /* solid.phi_transport: PHI_WENO5 or PHI_THINC */
  double thinc_steepness;        /* solid.thinc_steepness */
  int init_flow;                 /* init.flow */
  double flow_amplitude;         /* init.flow_amplitude */

  long fields_every;             /* output.fields_every (0 = at the end only) */
  long diagnostics_every;        /* output.diagnostics_every */
  long restart_every;            /* output.restart_every (0 = at the end only) */
  double progress_seconds;       /* output.progress_seconds (0 = no progress lines) */
  char fields_list[CONFIG_TEXT_LEN];   /* output.fields: "all" or the fields files' names */
  int fields_deflate;            /* output.deflate */
  int fields_quantize;           /* output.quantize */
  long bodies_every;             /* output.bodies_every (BODIES_EVERY_DIAGNOSTICS: not given) */
  int bodies_csv;                /* output.bodies_csv: BODIES_CSV_AUTO, _YES or _NO */
  efsi_output_keys box;          /* [box]: a region of the grid, subsampled */
  double box_lo[3], box_hi[3];   /* box.lo, box.hi (box_hi NaN: the box's far side) */
  int box_stride[3];             /* box.stride */
  efsi_output_keys slices;       /* [slices]: planes of the grid */
  efsi_numbers slice_at[3];      /* slices.x, slices.y, slices.z: the planes' positions */
  long average_every;            /* average.sample_every (0 = no averages) */
  double average_start;          /* average.start: samples from this time on */
  char average_fields[CONFIG_TEXT_LEN];   /* average.fields */
  int average_deflate;           /* average.deflate */

  double peak_gflops;            /* performance.peak_gflops (0 = not given) */
  int overlap;                   /* performance.overlap: halo exchanges under work */
  int sync_timers;               /* performance.sync_timers: barrier timed before the reduction */
  int device;                    /* performance.device: DEVICE_CPU or DEVICE_GPU */
  int halo_path;                 /* performance.halo_path: HALO_PATH_AUTO or a forced path */

  /* The solid (docs/case-file.md, "The solid"); a body family with count and fraction 0, a
   * sphere with radius 0, an ellipsoid with semi-axes 0 and an empty voxels.file are
   * absent. */
  long rbc_count;                /* rbc.count */
  double rbc_hematocrit;         /* rbc.hematocrit: of the lumen, or of the box */
  double rbc_diameter;           /* rbc.diameter */
  int rbc_orientation;           /* rbc.orientation */
  double rbc_center[3];          /* rbc.center: one RBC placed there; NaN when not given */
  double rbc_stretch;            /* rbc.stretch: the force on each end of that RBC (0: none) */
  int rbc_stretch_axis;          /* rbc.stretch_axis: 0, 1, 2 for x, y, z */
  double rbc_stretch_contact;    /* rbc.stretch_contact: the contact patches' diameter */
  long platelet_count;           /* platelet.count */
  double platelet_fraction;      /* platelet.fraction */
  double platelet_semi_axes[3];  /* platelet.semi_axes */
  int platelet_orientation;      /* platelet.orientation */
  double platelet_radial_band[2];/* platelet.radial_band: fractions of the lumen radius */
  double sphere_center[3], sphere_radius;
  double ellipsoid_center[3], ellipsoid_semi_axes[3];
  int vessel_shape;              /* vessel.shape */
  double vessel_diameter;
  char voxels_file[EFSI_PATH_LEN];
  int voxels_variable;           /* voxels.variable: phi or label */
  efsi_voxel_keys voxels_material;   /* voxels.model and its parameters, a list each */
  /* Each body family's material (src/case/material_models.h): <family>.model and the
   * model's parameters <family>.<parameter>, NaN when required and not given. */
  efsi_material_keys material[BODY_FAMILY_COUNT];

  /* Where each key of the schema got its value in config_parse (config_where): "FILE:LINE",
   * "--set section.key=value", or FILE when it kept its default. */
  char where[CONFIG_MAX_KEYS][CONFIG_WHERE_LEN];
} efsi_config;

/* Fill every key with its documented default. */
void config_defaults(efsi_config *c);

/* Parse INI text (the whole case file) named file, then apply the "section.key=value"
 * overrides; an override with an empty value ("section.key=") removes the key: it is then
 * not given, with its default.  On error returns nonzero and writes a one-line message
 * naming the file, line and key and the allowed range into err (MPI-free: the caller
 * broadcasts the text). */
int config_parse(efsi_config *c, const char *file, const char *text,
                 const char *const *overrides, int n_overrides, char *err, size_t errlen);

/* Checks that need the number of ranks (process grid against the grid).  Same contract. */
int config_validate_ranks(const efsi_config *c, int nranks, char *err, size_t errlen);

/* Where "section.key" got its value in the config_parse that filled c: "FILE:LINE",
 * "--set section.key=value", or FILE when the key kept its default (or is no key). */
const char *config_where(const efsi_config *c, const char *key);

#endif
