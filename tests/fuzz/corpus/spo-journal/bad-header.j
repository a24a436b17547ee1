storbench-spo-journal 2 run=x
