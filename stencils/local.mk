# files of stencils/ (sources, tests, data)
