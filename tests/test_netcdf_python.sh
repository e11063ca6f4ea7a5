#!/bin/sh
# A fields file opens as it is in the common tools: ncdump -h shows the CF header with
# variables on (time, z, y, x) and the time coordinate in us; netCDF4-python and xarray read
# the variable names, dimensions, coordinates and attributes, and xarray's broadcasting by
# coordinate name reproduces p = x + 2y + 3z (so the dimension order is right); two files
# open as one series at their times 0.5 and 1.25 with xarray.open_mfdataset (python3-dask,
# which ./quickstart installs) and with xarray.concat, which needs no dask.  Skipped (77)
# without ncdump or without python3's xarray and netCDF4.
builddir=${top_builddir:-.}
command -v ncdump >/dev/null 2>&1 || { echo "ncdump not found: skipped"; exit 77; }
dir=$(mktemp -d /tmp/efsi-test-netcdf-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
${EFSI_MPIRUN:-mpirun} -np 2 "$builddir/tests/write_sample_fields" "$dir" || exit 1
file=$dir/fields_00000010.nc

ncdump -h "$file" > "$dir/header" || { echo "ncdump -h $file failed"; exit 1; }
cat "$dir/header"
for line in 'time = 1 ;' 'z = 4 ;' 'y = 6 ;' 'x = 8 ;' 'double time(time) ;' 'double x(x) ;' \
    'double y(y) ;' 'double z(z) ;' 'time:units = "us" ;' 'time:standard_name = "time" ;' \
    'time:axis = "T" ;' 'double u(time, z, y, x) ;' 'double v(time, z, y, x) ;' \
    'double w(time, z, y, x) ;' 'double p(time, z, y, x) ;' 'double phi_rbc(time, z, y, x) ;' \
    'double phi_wall(time, z, y, x) ;' 'double bxx(time, z, y, x) ;' 'double byz(time, z, y, x) ;' \
    'u:units = "um us-1" ;' 'x:axis = "X" ;' \
    ':Conventions = "CF-1.8" ;' ':step = 10LL ;' ':time = 0.5 ;' ':case = "sample" ;'; do
  grep -F -q -- "$line" "$dir/header" || { echo "ncdump -h: no line '$line'"; exit 1; }
done

/usr/bin/python3 -c 'import xarray, netCDF4' 2>/dev/null \
  || { echo "python3 xarray or netCDF4 absent: skipped"; exit 77; }
/usr/bin/python3 - "$file" "$dir" <<'PYTHON' || exit 1
import glob, os, sys
import numpy as np
import netCDF4
import xarray as xr

path = sys.argv[1]
names = {"u", "v", "w", "p", "phi_rbc", "phi_wall", "bxx", "byy", "bzz", "bxy", "bxz", "byz"}
with netCDF4.Dataset(path) as nc:
    assert nc.data_model == "NETCDF4", nc.data_model
    assert set(nc.variables) == names | {"time", "x", "y", "z"}, sorted(nc.variables)
    assert all(nc[n].dimensions == ("time", "z", "y", "x") for n in names)
    assert nc["time"][:].tolist() == [0.5] and nc["time"].units == "us"
    assert nc["u"][0].shape == (4, 6, 8)
    assert nc.getncattr("step") == 10 and nc.getncattr("step").dtype == np.int64
    assert nc["p"].units == "pg um-1 us-2"

ds = xr.open_dataset(path)
assert set(ds.data_vars) == names, sorted(ds.data_vars)
assert all(ds[n].dims == ("time", "z", "y", "x") for n in names)
assert ds.sizes == {"time": 1, "z": 4, "y": 6, "x": 8}, dict(ds.sizes)
assert ds.time.values.tolist() == [0.5] and ds.time.attrs["units"] == "us"
for axis, n, h in (("x", 8, 0.5), ("y", 6, 0.5), ("z", 4, 0.5)):
    assert np.array_equal(ds[axis].values, (np.arange(n) + 0.5) * h), axis
    assert ds[axis].attrs["units"] == "um"
assert ds.attrs["Conventions"] == "CF-1.8" and ds.attrs["source"].startswith("efsi ")
assert ds.attrs["time"] == 0.5
error = abs(ds.p - (ds.x + 2 * ds.y + 3 * ds.z)).max().item()
assert error < 1e-12, error
# u_c = (u(i) + u(i+1))/2 of u = sin(2 pi x/Lx) on the faces: sin(2 pi x_c/Lx) cos(pi hx/Lx).
u_c = np.sin(2 * np.pi * ds.x / 4.0) * np.cos(np.pi * 0.5 / 4.0)
error = abs(ds.u - u_c).max().item()
assert error < 1e-12, error
assert float(ds.phi_rbc.mean()) == 0.25 and float(ds.bxx.min()) == 1.0
# a series: both files at their times, with open_mfdataset (dask) and without dask
files = sorted(glob.glob(os.path.join(sys.argv[2], "fields_*.nc")))
series = xr.concat([xr.open_dataset(f) for f in files], dim="time")
assert series.time.values.tolist() == [0.5, 1.25], series.time.values
assert float(abs(series.p.isel(time=1) - series.p.isel(time=0) - 1).max()) < 1e-12
try:
    import dask  # noqa: F401 (what xarray.open_mfdataset needs)
except ImportError:
    print("python3-dask absent: xarray.open_mfdataset not checked")
else:
    mf = xr.open_mfdataset(os.path.join(sys.argv[2], "fields_*.nc"))
    assert mf.time.values.tolist() == [0.5, 1.25], mf.time.values
    assert mf.u.dims == ("time", "z", "y", "x")
    assert float(abs(mf.p.sel(time=1.25) - series.p.isel(time=1)).max()) == 0
print("xarray and netCDF4 read", path, ": variables", sorted(ds.data_vars),
      "; the series at times", series.time.values.tolist())
PYTHON
