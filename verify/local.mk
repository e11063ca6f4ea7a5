# files of verify/ (sources, tests, data)
