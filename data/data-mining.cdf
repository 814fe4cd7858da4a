# Data-mining flow-size distribution (VL2 workload).
#
# Origin: A. Greenberg et al., "VL2: A Scalable and Flexible Data Center
# Network", ACM SIGCOMM 2009, Fig. 2 (flow sizes in a data-mining cluster), as
# tabulated for the pFabric simulations (M. Alizadeh et al., "pFabric: Minimal
# Near-Optimal Datacenter Transport", ACM SIGCOMM 2013) and published with the
# PIAS simulations (W. Bai et al., "Information-Agnostic Flow Scheduling for
# Commodity Data Centers", USENIX NSDI 2015): file scripts/CDF_vl2.tcl of
# github.com/HKUST-SING/PIAS-NS2, checked here point by point against the copy
# in github.com/HKUST-SING/MQ-ECN-NS2, scripts/CDF_vl2.tcl (commit
# 33e9d4175aadddaa559e247767d546c14ac1cf76). That file gives
# "size_in_packets 1 cdf" per line:
#   1 0 / 1 0.5 / 2 0.6 / 3 0.7 / 7 0.8 / 267 0.9 / 2107 0.95 / 66667 0.99 /
#   666667 1
# Units: sizes in packets of 1460 bytes (see web-search.cdf), so sizes here
# are packets x 1460 bytes; the middle column (always 1) is dropped. Half the
# flows are one packet; the largest is 973.3 MB, so a few flows carry most of
# the bytes.
# Mean, linear interpolation: 5116.6 packets = 7470236 bytes (7.47 MB); the
# PIAS run script scripts/run_pias_vl2.py (HKUST-SING/PIAS-NS2, commit
# 1496a612371c8bb2c9f37f1e928b84aa804cd6fe) uses meanFlowSize = 5117*1460
# (7.47 MB).
#
# Other tabulations of the VL2 curve exist and differ (e.g. the byte-valued
# VL2_CDF of github.com/datacenter/empirical-traffic-gen: 180 B at 0.1 up to
# 1e9 B at 1); this file is the pFabric/PIAS one.
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
