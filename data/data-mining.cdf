# Data-mining flow-size distribution (VL2 workload).
#
# Source: A. Greenberg et al., "VL2: A Scalable and Flexible Data Center
# Network", ACM SIGCOMM 2009, Fig. 2 (flow sizes in a data-mining cluster),
# in the tabulated form distributed with the pFabric simulations
# (M. Alizadeh et al., "pFabric: Minimal Near-Optimal Datacenter Transport",
# ACM SIGCOMM 2013, file CDF_dm.tcl), where sizes are given in 1460-byte
# packets:
#   1 0 / 1 0.5 / 2 0.6 / 3 0.7 / 7 0.8 / 267 0.9 / 2107 0.95 / 66667 0.99 /
#   666667 1
# Converted here to bytes (packets x 1460). Half the flows are one packet;
# the largest is about 973 MB, so a few flows carry most of the bytes (mean
# 7.47 MB with linear interpolation).
#
# Format: see web-search.cdf.
1460 0
1460 0.5
2920 0.6
4380 0.7
10220 0.8
389820 0.9
3076220 0.95
97333820 0.99
973333820 1
