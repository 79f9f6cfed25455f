# XSBench 20 (ANL-CESAR/XSBench, commit ba08e52), cuda/ version, built on the development machine
# (not committed): make SM_VERSION=90 CFLAGS="-Xcompiler -O3 -arch=sm_90 -std=c++17 -O3"  (nvcc 13.0)
# run on the lent H200 in the same session as xsbench-large.json:
XSBench -m event -s large -k 0   > XSBench-cuda-k0.txt
XSBench -m event -s large -k 6   > XSBench-cuda-k6.txt
