storbench-spo-journal 1 run=0123456789abcdef bs=4096 offset=0 size=1048576 canary=65536 sync=fdatasync rw=randwrite iodepth=1 start=1796162562283122555
I 1 65536 100
A 1 200
I 2 131072 300
A 2 400
E 500
