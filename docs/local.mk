# files of docs/ (sources, tests, data)
