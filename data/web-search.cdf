# Web-search flow-size distribution (DCTCP workload).
#
# Origin: M. Alizadeh et al., "Data Center TCP (DCTCP)", ACM SIGCOMM 2010,
# Fig. 4 (background flows of a production web-search cluster), as tabulated
# for the pFabric simulations (M. Alizadeh et al., "pFabric: Minimal
# Near-Optimal Datacenter Transport", ACM SIGCOMM 2013) and published with the
# PIAS simulations (W. Bai et al., "Information-Agnostic Flow Scheduling for
# Commodity Data Centers", USENIX NSDI 2015), whose README credits the pFabric
# code: file scripts/CDF_dctcp.tcl of github.com/HKUST-SING/PIAS-NS2, checked
# here point by point against the copy in github.com/PlatformLab/HomaSimulation,
# RpcTransportDesign/ns2_Simulations/scripts/originalPias/CDF_dctcp.tcl
# (commit 8ec9a5f0ba44f3a4aadb7ce47b75c51471052419). That file gives
# "size_in_packets 1 cdf" per line:
#   6 0 / 6 0.15 / 13 0.2 / 19 0.3 / 33 0.4 / 53 0.53 / 133 0.6 / 667 0.7 /
#   1333 0.8 / 3333 0.9 / 6667 0.97 / 20000 1
# Units: the ns-2 scripts draw a size in packets and send that many 1460-byte
# TCP payloads, so sizes here are packets x 1460 bytes (the same conversion
# as HomaSimulation's byte-valued CDF_search.tcl, e.g. 8760 at 0.15 and
# 29200000 at 1). The middle column (always 1) is dropped.
# Mean, linear interpolation: 1140.98 packets = 1665831 bytes (1.67 MB); the
# PIAS run script scripts/run_pias_dctcp.py (HKUST-SING/PIAS-NS2, commit
# 0fa0b02d7e49a8f6e8c18638ffdf29bec2869c8f) uses meanFlowSize = 1138*1460
# (1.66 MB).
#
# Format (DcnFlowSizeDistribution): one point per line, "size_bytes cdf"
# (whitespace or a comma between them), sizes > 0 and non-decreasing, cdf
# non-decreasing in [0, 1] and ending at 1; '#' starts a comment. Sizes are
# drawn by linear interpolation between points (ns-3 EmpiricalRandomVariable
# with Interpolate = true).
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
