# Web-search flow-size distribution (DCTCP workload).
#
# Source: M. Alizadeh et al., "Data Center TCP (DCTCP)", ACM SIGCOMM 2010,
# Fig. 4 (background flows of a production web-search cluster), in the
# tabulated form distributed with the pFabric simulations (M. Alizadeh et al.,
# "pFabric: Minimal Near-Optimal Datacenter Transport", ACM SIGCOMM 2013,
# file CDF_search.tcl), where sizes are given in 1460-byte packets:
#   6 0 / 6 0.15 / 13 0.2 / 19 0.3 / 33 0.4 / 53 0.53 / 133 0.6 / 667 0.7 /
#   1333 0.8 / 3333 0.9 / 6667 0.97 / 20000 1
# Converted here to bytes (packets x 1460). Mean 1.67 MB (linear interpolation);
# largest 29.2 MB.
#
# Format (DcnFlowSizeDistribution): one point per line, "size_bytes cdf",
# sizes non-decreasing, cdf non-decreasing in [0, 1] and ending at 1; '#'
# starts a comment. Sizes are drawn by linear interpolation between points
# (ns-3 EmpiricalRandomVariable with Interpolate = true).
8760 0
8760 0.15
18980 0.2
27740 0.3
48180 0.4
77380 0.53
194180 0.6
973820 0.7
1946180 0.8
4866180 0.9
9733820 0.97
29200000 1
