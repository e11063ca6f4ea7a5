"""Steady state of an initially spherical, incompressible Kelvin-Voigt neo-Hookean particle
freely suspended in an unbounded simple shear flow u = gdot y e_x of a Newtonian fluid:
the reference theory that efsi's solid solver is tested against (docs/sphere-shear-theory.md).

Parameters: Ca = mu gdot / G (fluid viscosity mu, shear modulus G of the particle) and
lambda = mu_s / mu (the particle's own viscosity over the fluid's; efsi has lambda = 1, one
viscosity everywhere).  Lengths in units of the undeformed radius, times in 1/gdot.

In this theory the particle deforms homogeneously (its deformation gradient F is uniform),
so it stays an ellipsoid; at steady state B = F F^T is constant, the ellipsoid has fixed
semi-axes a1 >= a2 (shear plane), a3 (vorticity axis), a1 a2 a3 = 1, its long axis at angle
theta from the flow direction, and the material tank-treads through the fixed shape.

Two independent formulations are implemented and must agree (they do, to ~1e-14):

1. `steady_state` (primary).  Eshelby's equivalent-inclusion solution for an ellipsoid in an
   incompressible viscous matrix gives the particle's uniform velocity gradient L from its
   uniform stress; the steady state is L B + B L^T = 0, solved by Newton's method.  This is
   the approach of Gao, Hu & Ponte Castaneda (2011, J. Fluid Mech. 687, 209-237: Eshelby-type
   polarisation, ODEs for the particle's shape and orientation; their particle is purely
   elastic, lambda = 0 here), with the particle viscosity of Roscoe (1967) added to the
   particle stress.  Only that paper's abstract was available to us: the equations are
   derived for efsi in docs/sphere-shear-theory.md section 2, not transcribed, and are checked
   against Roscoe's and Jeffery's results.  The same velocity gradient drives `transient`, an
   RK4 integration of dB/dt = L B + B L^T from the sphere B = I.

2. `roscoe_steady_state`.  Roscoe's (1967, J. Fluid Mech. 28, 273-293) closed equations for
   the steady state: the shape condition (his eq. 78), the shear rate (79), the inclination
   (80) and the tank-treading frequency (41), with the form factors of his eqs. (39), (40),
   (43), solved by bisection.  Roscoe's paper itself was not available to us: the equations
   and their numbers are as given in the open-source code of Gerum et al. (eLife 11:e78823,
   2022), github.com/fabrylab/shear_flow_deformation_cytometer,
   deformationcytometer/includes/RoscoeCoreInclude.py and form_factors.py (read, not copied).

Both use the elliptic integrals of the ellipsoid, computed here: by Gauss-Legendre
quadrature on a mapped interval (`ellipsoid_integral`), checked against Carlson's R_D
(`carlson_rd`, Carlson 1995, Numer. Algorithms 10, 13-26).

Small-deformation limit (docs/sphere-shear-theory.md section 4):
    D = (5/4) Ca + O(Ca^3),   theta = pi/4 - (3 + 2 lambda) Ca / 4 + O(Ca^2)   [radians].

Standard library and numpy only.  Import from another script with

    sys.path.insert(0, "<efsi>/verify"); import roscoe_theory
    D, theta_deg = roscoe_theory.taylor_deformation(0.1)
"""

import math

import numpy as np

FOUR_PI = 4.0 * math.pi

# ---------------------------------------------------------------------------------------
# Elliptic integrals
# ---------------------------------------------------------------------------------------


def carlson_rf(x, y, z):
    """Carlson's symmetric integral R_F(x, y, z) = 1/2 int_0^inf dt / sqrt((t+x)(t+y)(t+z)),
    by the duplication theorem (Carlson 1995, Numer. Algorithms 10, 13-26, algorithm 1)."""
    for _ in range(200):
        mean = (x + y + z) / 3.0
        dx, dy, dz = 1.0 - x / mean, 1.0 - y / mean, 1.0 - z / mean
        if max(abs(dx), abs(dy), abs(dz)) < 1e-4:
            break
        sx, sy, sz = math.sqrt(x), math.sqrt(y), math.sqrt(z)
        lam = sx * sy + sy * sz + sz * sx
        x, y, z = 0.25 * (x + lam), 0.25 * (y + lam), 0.25 * (z + lam)
    e2 = dx * dy - dz * dz
    e3 = dx * dy * dz
    return (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0) / math.sqrt(mean)


def carlson_rd(x, y, z):
    """Carlson's R_D(x, y, z) = 3/2 int_0^inf dt / ((t+z) sqrt((t+x)(t+y)(t+z))), by the
    duplication theorem (Carlson 1995, algorithm 4).  x, y >= 0 (one may be 0), z > 0."""
    total, scale = 0.0, 1.0
    for _ in range(200):
        mean = (x + y + 3.0 * z) / 5.0
        dx, dy, dz = 1.0 - x / mean, 1.0 - y / mean, 1.0 - z / mean
        if max(abs(dx), abs(dy), abs(dz)) < 1e-4:
            break
        sx, sy, sz = math.sqrt(x), math.sqrt(y), math.sqrt(z)
        lam = sx * sy + sy * sz + sz * sx
        total += scale / (sz * (z + lam))
        scale *= 0.25
        x, y, z = 0.25 * (x + lam), 0.25 * (y + lam), 0.25 * (z + lam)
    # the series in X = dx, Y = dy, Z = dz (X + Y + 3Z = 0)
    xy, zz = dx * dy, dz * dz
    e2 = xy - 6.0 * zz
    e3 = (3.0 * xy - 8.0 * zz) * dz
    e4 = 3.0 * (xy - zz) * zz
    e5 = xy * zz * dz
    series = (1.0 - 3.0 * e2 / 14.0 + e3 / 6.0 + 9.0 * e2 * e2 / 88.0 - 3.0 * e4 / 22.0
              - 9.0 * e2 * e3 / 52.0 + 3.0 * e5 / 26.0)
    return 3.0 * total + scale * series / (mean * math.sqrt(mean))


_GL_X, _GL_W = np.polynomial.legendre.leggauss(96)
_GL_U = 0.5 * (_GL_X + 1.0)          # nodes on (0, 1)
_GL_W = 0.5 * _GL_W


def integral_0_inf(f, scale):
    """int_0^inf f(s) ds for an f that decays at least like s^(-5/2), by the substitution
    s = scale (1/u^2 - 1), u in (0, 1], and 96-point Gauss-Legendre in u.  For the
    integrands of the ellipsoid (rational in s times Delta(s)^-1) and scale = the smallest
    a_i^2 the mapped integrand is smooth on [0, 1] with its singularities off the real axis;
    agreement with Carlson's R_D is ~1e-15 for axis ratios up to 25 (tests/test_roscoe.sh)."""
    u = _GL_U
    s = scale * (1.0 / (u * u) - 1.0)
    return float(np.sum(_GL_W * f(s) * 2.0 * scale / (u * u * u)))


def ellipsoid_integral(a, powers):
    """int_0^inf ds / (prod_i (a_i^2 + s)^p_i  Delta(s)),  Delta = sqrt(prod_i (a_i^2 + s))."""
    a2 = np.asarray(a, dtype=float) ** 2

    def f(s):
        q = a2[:, None] + s[None, :]
        return 1.0 / (np.prod(q ** (np.asarray(powers, dtype=float)[:, None] + 0.5), axis=0))

    return integral_0_inf(f, float(a2.min()))


def eshelby_integrals(a):
    """Eshelby's integrals of the ellipsoid with semi-axes a (Eshelby 1957, Proc. R. Soc. A
    241, 376; in the notation of Mura, Micromechanics of Defects in Solids, 1987):
        I_i  = 2 pi a1 a2 a3 int ds / ((a_i^2 + s) Delta)
        I_ij = 2 pi a1 a2 a3 int ds / ((a_i^2 + s)(a_j^2 + s) Delta)
    Returns (I, II) with I of shape (3,) and II of shape (3, 3), II symmetric.  For a sphere
    of radius 1: I_i = 4 pi/3, I_ij = 4 pi/5."""
    a = np.asarray(a, dtype=float)
    pref = 2.0 * math.pi * a.prod()
    I = np.empty(3)
    II = np.empty((3, 3))
    for i in range(3):
        p = [0, 0, 0]
        p[i] = 1
        I[i] = pref * ellipsoid_integral(a, p)
        for j in range(i, 3):
            p = [0, 0, 0]
            p[i] += 1
            p[j] += 1
            II[i, j] = II[j, i] = pref * ellipsoid_integral(a, p)
    return I, II


def eshelby_I_carlson(a):
    """I_i from Carlson's R_D: I_1 = (4 pi/3) a1 a2 a3 R_D(a2^2, a3^2, a1^2), and cyclically
    (an independent check on the quadrature)."""
    a2 = [float(x) ** 2 for x in a]
    vol = float(np.prod(a))
    return np.array([FOUR_PI / 3.0 * vol * carlson_rd(a2[(i + 1) % 3], a2[(i + 2) % 3], a2[i])
                     for i in range(3)])


# ---------------------------------------------------------------------------------------
# Formulation 1: Eshelby's inclusion and the B equation
# ---------------------------------------------------------------------------------------
#
# In the frame of the ellipsoid's principal axes, for an incompressible matrix (Poisson's
# ratio 1/2: Mura's (1987) Eshelby tensor of the ellipsoid at nu = 1/2, where its (1 - 2 nu)
# terms vanish):
#     S_iiii = 3 a_i^2 I_ii / (4 pi),  S_iijj = a_j^2 I_ij / (4 pi),
#     S_ijij = (a_i^2 + a_j^2) I_ij / (8 pi)                      (i != j, no sum)
# and the rotation tensor Pi_ijij = (I_j - I_i) / (8 pi), fixed in sign by Jeffery's (1922)
# spin of a rigid ellipsoid (checked in tests/test_roscoe.sh).  For a uniform deviatoric
# particle stress tau, the particle's uniform strain rate D and spin W are
#     D = D_inf + S : D*,   W = W_inf + Pi : D*,   D* = D - tau / (2 mu)   (traceless)
# and tau = G dev(B) + 2 mu_s D (Kelvin-Voigt neo-Hookean), so that, with gdot = mu = 1,
#     [I - (1 - lambda) S] : D = D_inf - S : dev(B) / (2 Ca),
#     W = W_inf + Pi : [(1 - lambda) D - dev(B) / (2 Ca)].
# In the principal frame dev(B) is diagonal, S maps diagonal to diagonal and each
# off-diagonal pair onto itself, so the system splits into a 2x2 normal part and three
# scalar shear parts.


def _principal_velocity_gradient(a, d_inf, w_inf, ca, lam, ints=None):
    """The particle's velocity gradient L = D + W in the principal frame of B (semi-axes a),
    given the far-field strain rate d_inf and spin w_inf in that frame."""
    I, II = ints if ints is not None else eshelby_integrals(a)
    a2 = np.asarray(a, dtype=float) ** 2
    b = a2 - a2.mean()                                  # dev(B), diagonal
    sn = np.empty((3, 3))                               # S_iijj
    for i in range(3):
        for j in range(3):
            sn[i, j] = (3.0 if i == j else 1.0) * a2[j] * II[i, j] / FOUR_PI
    m = np.eye(3) - (1.0 - lam) * sn
    rhs = np.diag(d_inf) - sn @ b / (2.0 * ca)
    # two of the three normal equations plus tr D = 0 (the third is their consequence)
    sys_m = np.vstack([m[0], m[1], np.ones(3)])
    sys_r = np.array([rhs[0], rhs[1], 0.0])
    d = np.diag(np.linalg.solve(sys_m, sys_r))
    w = np.zeros((3, 3))
    for i, j in ((0, 1), (0, 2), (1, 2)):
        s_ijij = (a2[i] + a2[j]) * II[i, j] / (8.0 * math.pi)
        pi_ijij = (I[j] - I[i]) / (8.0 * math.pi)
        dij = d_inf[i, j] / (1.0 - 2.0 * (1.0 - lam) * s_ijij)
        d[i, j] = d[j, i] = dij
        w[i, j] = w_inf[i, j] + 2.0 * pi_ijij * (1.0 - lam) * dij
        w[j, i] = -w[i, j]
    return d + w


# far field of u = y e_x (gdot = 1): L_xy = 1
_D_INF = np.array([[0.0, 0.5, 0.0], [0.5, 0.0, 0.0], [0.0, 0.0, 0.0]])
_W_INF = np.array([[0.0, 0.5, 0.0], [-0.5, 0.0, 0.0], [0.0, 0.0, 0.0]])


def _rotation(theta):
    """Columns: the principal directions e1 = (cos, sin, 0), e2 = (-sin, cos, 0), e3 = z."""
    c, s = math.cos(theta), math.sin(theta)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def velocity_gradient(a, theta, ca, lam=1.0):
    """The particle's uniform velocity gradient L (lab frame, gdot = 1, L_ij = du_i/dx_j) for
    an ellipsoid with semi-axes a = (a1, a2, a3), a1 along (cos theta, sin theta, 0), a3 along
    z, whose deformation is B = diag(a^2) in its principal frame, at capillary number ca and
    viscosity ratio lam.  ca = inf removes the elastic stress; a large lam makes the particle
    rigid (then W is Jeffery's spin, tests/test_roscoe.sh)."""
    a = np.asarray(a, dtype=float)
    r = _rotation(theta)
    lp = _principal_velocity_gradient(a, r.T @ _D_INF @ r, r.T @ _W_INF @ r, ca, lam)
    return r @ lp @ r.T


def _steady_residual(x, ca, lam):
    """L B + B L^T in the principal frame, components 11, 22, 12, for x = (ln a1, ln a2,
    theta) and a3 = 1/(a1 a2); zero at the steady state (the 33 component then follows from
    tr L = 0, the 13 and 23 ones vanish by symmetry)."""
    a1, a2, theta = math.exp(x[0]), math.exp(x[1]), x[2]
    a = np.array([a1, a2, 1.0 / (a1 * a2)])
    r = _rotation(theta)
    lp = _principal_velocity_gradient(a, r.T @ _D_INF @ r, r.T @ _W_INF @ r, ca, lam)
    bd = np.diag(a * a)
    g = lp @ bd + bd @ lp.T
    return np.array([g[0, 0], g[1, 1], g[0, 1]])


def _newton(x, ca, lam, max_iter=50):
    """Damped Newton's method with a central-difference Jacobian.  Stops when the step is
    below 1e-14 (x is O(1): logarithms of the semi-axes and an angle) or the residual below
    1e-15; fails if the residual is then above 1e-10."""
    f = _steady_residual(x, ca, lam)
    for _ in range(max_iter):
        if np.max(np.abs(f)) < 1e-15:
            break
        jac = np.empty((3, 3))
        for k in range(3):
            h = 1e-6
            xp, xm = x.copy(), x.copy()
            xp[k] += h
            xm[k] -= h
            jac[:, k] = (_steady_residual(xp, ca, lam) - _steady_residual(xm, ca, lam)) / (2 * h)
        step = np.linalg.solve(jac, -f)
        t = 1.0
        while True:
            xn = x + t * step
            fn = _steady_residual(xn, ca, lam)
            if np.max(np.abs(fn)) <= np.max(np.abs(f)) or t < 1e-3:
                break
            t *= 0.5
        x, f = xn, fn
        if np.max(np.abs(t * step)) < 1e-14:
            break
    if not np.max(np.abs(f)) < 1e-10:
        raise RuntimeError("steady_state: Newton did not converge at Ca = %g, lambda = %g"
                           % (ca, lam))
    return x, f


def small_deformation(ca, lam=1.0):
    """Leading order in Ca (docs/sphere-shear-theory.md section 4): (D, theta in degrees).
    D = 5 Ca / 4 for every lambda; theta = 45 deg - (3 + 2 lambda) Ca / 4 radians."""
    return 1.25 * ca, math.degrees(math.pi / 4.0 - (3.0 + 2.0 * lam) * ca / 4.0)


def _state(a, theta, ca, lam, method, residual):
    a1, a2, a3 = (float(v) for v in a)
    r = _rotation(theta)
    lp = _principal_velocity_gradient(np.array(a), r.T @ _D_INF @ r, r.T @ _W_INF @ r, ca, lam)
    # tank-treading: in the principal frame L = V Omega V^-1 with V = diag(a), Omega the
    # material's spin about the undeformed sphere; nu = Omega_21 (negative: clockwise, like
    # the flow's vorticity for u = y e_x).  Roscoe's nu (his eq. 41).
    nu = lp[1, 0] * a1 / a2
    return {
        "Ca": ca, "lambda": lam,
        "D": (a1 - a2) / (a1 + a2),
        "theta_deg": math.degrees(theta),
        "a1": a1, "a2": a2, "a3": a3,
        "tank_treading_frequency": abs(nu),     # |nu| / gdot, rad per 1/gdot
        "tank_treading_period": 2.0 * math.pi / abs(nu),   # gdot T
        "method": method,
        "residual": residual,
    }


def steady_state(ca, lam=1.0):
    """The steady state at capillary number ca = mu gdot / G and viscosity ratio lam = mu_s/mu,
    by Newton's method on L B + B L^T = 0 (formulation 1), continued in Ca from the small-
    deformation solution.  Returns a dict: D, theta_deg, a1, a2, a3, tank_treading_frequency
    (|nu|/gdot: the material's angular frequency on the undeformed sphere, 1/2 for a rigid
    sphere), tank_treading_period (gdot T = 2 pi/|nu|), residual."""
    if not ca > 0:
        raise ValueError("Ca must be > 0")
    if not lam >= 0:
        raise ValueError("lambda must be >= 0")
    steps = max(1, int(math.ceil(ca / 0.02)))
    x = None
    for k in range(1, steps + 1):
        c = ca * k / steps
        if x is None:
            d0, t0 = small_deformation(c, lam)
            x = np.array([math.log(1 + d0), math.log(1 - d0), math.radians(t0)])
        x, f = _newton(x, c, lam)
    a1, a2 = math.exp(x[0]), math.exp(x[1])
    if a1 < a2:
        raise RuntimeError("steady_state: a1 < a2 at Ca = %g" % ca)
    return _state((a1, a2, 1.0 / (a1 * a2)), x[2], ca, lam, "eshelby-newton",
                  float(np.max(np.abs(f))))


def taylor_deformation(ca, lam=1.0):
    """(D, theta in degrees) of the steady state."""
    s = steady_state(ca, lam)
    return s["D"], s["theta_deg"]


def transient(ca, lam=1.0, t_end=20.0, dt=None, every=None):
    """RK4 integration of dB/dt = L B + B L^T from the undeformed sphere B = I (the time-
    dependent problem of Gao et al. 2011), L from Eshelby's solution as in `steady_state`.  Returns a list of
    (t, D, theta_deg, a1, a2, a3) sampled every `every` time units (default 0.5), and the
    final B.  dt defaults to a fraction of the elastic relaxation time (3 + 2 lam) Ca / 2."""
    if dt is None:
        dt = min(0.02, 0.1 * (3.0 + 2.0 * lam) * ca / 2.0)
    if every is None:
        every = 0.5
    d_inf, w_inf = _D_INF, _W_INF

    def rate(b):
        vals, vecs = np.linalg.eigh(b)
        order = np.argsort(vals)[::-1]
        vals, vecs = vals[order], vecs[:, order]
        lp = _principal_velocity_gradient(np.sqrt(vals), vecs.T @ d_inf @ vecs,
                                          vecs.T @ w_inf @ vecs, ca, lam)
        lab = vecs @ lp @ vecs.T
        return lab @ b + b @ lab.T

    def sample(t, b):
        vals, vecs = np.linalg.eigh(b)
        # in-plane axes: the two eigenvectors with the largest in-plane (x, y) weight
        inplane = np.argsort(vecs[2, :] ** 2)[:2]
        k1, k2 = (inplane if vals[inplane[0]] >= vals[inplane[1]] else inplane[::-1])
        k3 = 3 - k1 - k2
        a1, a2, a3 = math.sqrt(vals[k1]), math.sqrt(vals[k2]), math.sqrt(vals[k3])
        e1 = vecs[:, k1]
        th = math.degrees(math.atan2(e1[1], e1[0]))
        th = (th + 90.0) % 180.0 - 90.0
        return (t, (a1 - a2) / (a1 + a2), th, a1, a2, a3)

    b = np.eye(3)
    n = int(math.ceil(t_end / dt))
    dt = t_end / n
    per = max(1, int(round(every / dt)))
    out = [sample(0.0, b)]
    for k in range(1, n + 1):
        k1 = rate(b)
        k2 = rate(b + 0.5 * dt * k1)
        k3 = rate(b + 0.5 * dt * k2)
        k4 = rate(b + dt * k3)
        b = b + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        b = 0.5 * (b + b.T)
        if k % per == 0 or k == n:
            out.append(sample(k * dt, b))
    return out, b


# ---------------------------------------------------------------------------------------
# Formulation 2: Roscoe's (1967) closed equations
# ---------------------------------------------------------------------------------------
#
# Roscoe's form factors for semi-axes (a1, a2, a3 = 1/(a1 a2)), Delta as above:
#   g_i'' = int s ds / ((a_j^2 + s)(a_k^2 + s) Delta)      ({i, j, k} = {1, 2, 3})
#   g_3'  = int ds / ((a_1^2 + s)(a_2^2 + s) Delta)
#   I = (2/5)(g1'' + g2'') / (g2'' g3'' + g3'' g1'' + g1'' g2'')           (eq. 39)
#   J = (2/5)(g1'' - g2'') / (same)                                       (eq. 40)
#   K = (a1^2 + a2^2) / (5 g3' a1^2 a2^2)                                 (eq. 43)
# with sigma = 5 mu / (2 G), tau = (3 mu + 2 mu_s) / (2 G) (eq. 62), kappa = gdot:
#   shape:         (a1^2 + a2^2 - 2 a3^2) / (a1^2 - a2^2) = J / I          (eq. 78)
#   shear rate:    (a1^2 - a2^2) / (2 I) = sigma kappa sin 2 theta        (eq. 79)
#   inclination:   cos 2 theta = (a1^2 - a2^2)/(a1^2 + a2^2)
#                  * (1 + t B^2) / (1 + t C^2),  t = (tau - sigma)/(K sigma) (eq. 80)
#                  B = (a1^2 + a2^2)/(2 a1 a2), C = (a1^2 - a2^2)/(2 a1 a2)
#   tank-treading: nu = -(kappa/2) B [1 - cos 2 theta (a1^2 - a2^2)/(a1^2 + a2^2)]  (eq. 41)
# The shape (78) does not depend on Ca or lambda: the steady shapes form one family, which
# lambda orders in Ca through theta.


def _roscoe_factors(a1, a2):
    a = np.array([a1, a2, 1.0 / (a1 * a2)])
    sq = a * a
    scale = float(sq.min())

    def delta(s):
        return np.sqrt((sq[0] + s) * (sq[1] + s) * (sq[2] + s))

    g = []
    for i in range(3):
        j, k = [m for m in range(3) if m != i]
        g.append(integral_0_inf(lambda s, j=j, k=k: s / ((sq[j] + s) * (sq[k] + s) * delta(s)),
                                scale))
    g3p = integral_0_inf(lambda s: 1.0 / ((sq[0] + s) * (sq[1] + s) * delta(s)), scale)
    den = g[1] * g[2] + g[2] * g[0] + g[0] * g[1]
    big_i = 0.4 * (g[0] + g[1]) / den
    big_j = 0.4 * (g[0] - g[1]) / den
    big_k = (sq[0] + sq[1]) / (5.0 * g3p * sq[0] * sq[1])
    return big_i, big_j, big_k


def _roscoe_shape_residual(a1, a2):
    """Roscoe's eq. (78), as (a1^2 + a2^2 - 2 a3^2) I - (a1^2 - a2^2) J (no division)."""
    big_i, big_j, _ = _roscoe_factors(a1, a2)
    a3 = 1.0 / (a1 * a2)
    return (a1 * a1 + a2 * a2 - 2.0 * a3 * a3) * big_i - (a1 * a1 - a2 * a2) * big_j


def _bisect(f, lo, hi, tol=1e-15, max_iter=200):
    flo = f(lo)
    fhi = f(hi)
    if flo == 0:
        return lo
    if fhi == 0:
        return hi
    if (flo > 0) == (fhi > 0):
        raise RuntimeError("bisection: no sign change on [%g, %g]" % (lo, hi))
    for _ in range(max_iter):
        mid = 0.5 * (lo + hi)
        fm = f(mid)
        if fm == 0 or hi - lo < tol * max(1.0, abs(mid)):
            return mid
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return 0.5 * (lo + hi)


def roscoe_shape(a1):
    """a2 (and a3 = 1/(a1 a2)) on Roscoe's steady-shape family (eq. 78) for a given a1 > 1.
    a2 lies between 1/a1^2 (a3 = a1) and 1/sqrt(a1) (a3 = a2); bisection."""
    return _bisect(lambda a2: _roscoe_shape_residual(a1, a2), a1 ** -2 * (1 + 1e-12),
                   a1 ** -0.5 * (1 - 1e-12))


def roscoe_point(a1, lam=1.0):
    """Roscoe's steady state parametrised by a1: (Ca, a2, a3, theta in radians, nu/gdot)."""
    a2 = roscoe_shape(a1)
    a3 = 1.0 / (a1 * a2)
    big_i, _, big_k = _roscoe_factors(a1, a2)
    p, m = a1 * a1 + a2 * a2, a1 * a1 - a2 * a2
    sigma = 2.5                          # 5 mu / (2 G) in units of 1/G with mu = 1 ...
    tau = (3.0 + 2.0 * lam) / 2.0        # ... and (3 mu + 2 mu_s) / (2 G)
    t = (tau - sigma) / (big_k * sigma)
    bb, cc = p / (2 * a1 * a2), m / (2 * a1 * a2)
    cos2 = m / p * (1.0 + t * bb * bb) / (1.0 + t * cc * cc)
    if cos2 >= 1.0:                      # beyond the family's end for this lambda:
        return math.inf, a2, a3, 0.0, 0.0  # theta -> 0 and Ca -> infinity
    theta = 0.5 * math.acos(max(-1.0, cos2))
    ca = m / (2.0 * big_i) / (sigma * math.sin(2.0 * theta))    # eq. 79: kappa mu / G
    nu = -0.5 * bb * (1.0 - math.cos(2.0 * theta) * m / p)       # eq. 41, per unit kappa
    return ca, a2, a3, theta, nu


def roscoe_steady_state(ca, lam=1.0):
    """The steady state from Roscoe's equations (78)-(80), (41): bisection on a1 for the
    given Ca.  Same dict as `steady_state`."""
    if not ca > 0:
        raise ValueError("Ca must be > 0")
    lo = 1.0 + 1e-6
    if roscoe_point(lo, lam)[0] > ca:
        raise ValueError("Ca = %g too small for the bisection start a1 = 1 + 1e-6" % ca)
    hi = 1.0 + 2.0 * ca
    while roscoe_point(hi, lam)[0] < ca:
        lo, hi = hi, 1.0 + 2.0 * (hi - 1.0)
        if hi > 20:
            raise RuntimeError("roscoe_steady_state: no a1 < 20 reaches Ca = %g" % ca)
    a1 = _bisect(lambda x: roscoe_point(x, lam)[0] - ca, lo, hi)
    c, a2, a3, theta, nu = roscoe_point(a1, lam)
    s = _state((a1, a2, a3), theta, ca, lam, "roscoe-1967", abs(c - ca))
    s["tank_treading_frequency"] = abs(nu)
    s["tank_treading_period"] = 2.0 * math.pi / abs(nu)
    return s
