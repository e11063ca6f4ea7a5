# files of io/ (sources, tests, data)
