# files of runs/ (sources, tests, data)
