# files of decomp/ (sources, tests, data)
