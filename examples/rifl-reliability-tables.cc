/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rifl-reliability-tables: the analytic side of the RIFL paper and of the
 * direct-link layer, from LinkReliabilityModel.
 *
 * Prints, and writes as CSV files in the working directory:
 *  - the framing-efficiency table of RIFL256/RIFL512 (and the direct-link
 *    micro-packet) over a list of payload sizes;
 *  - buffer sizing: the RTL Frame ID width, retransmission-buffer and
 *    flow-control-buffer sizes over cable lengths, and the paper's S_retrans;
 *  - an MTBF table over BER for RIFL256, RIFL512 and the direct-link
 *    micro-packet, with the paper's approximation and the exact value from the
 *    weight spectrum of the module's real decoders.
 *
 * Usage: rifl-reliability-tables [--laneRate=28e9] [--lanes=4] [--bwRatio=0.963]
 *        [--berMin=1e-12] [--berMax=1e-5] [--stepsPerDecade=4] [--prefix=rifl-tables]
 *        [--directLinkRate=5e9]
 */

#include "ns3/core-module.h"
#include "ns3/direct-link-flit.h"
#include "ns3/link-reliability-model.h"
#include "ns3/rifl-check.h"
#include "rifl-example-args.h"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \brief Open a CSV file or fail with its name.
 * \param name the file name.
 * \return the stream.
 */
std::ofstream
OpenCsv(const std::string& name)
{
    std::ofstream f(name);
    if (!f)
    {
        throw std::runtime_error("cannot write " + name);
    }
    f << std::setprecision(10);
    return f;
}

} // namespace

int
main(int argc, char* argv[])
{
    double laneRate = 28e9;
    std::string lanesText = "4";
    double bwRatio = 0.963;
    double berMin = 1e-12;
    double berMax = 1e-5;
    std::string stepsText = "4";
    double directLinkRate = 5e9;
    std::string prefix = "rifl-tables";

    CommandLine cmd(__FILE__);
    cmd.AddValue("laneRate", "RIFL lane line rate in bit/s, (0, 1e13]", laneRate);
    cmd.AddValue("lanes", "RIFL bonded lanes, 1..64", lanesText);
    cmd.AddValue("bwRatio",
                 "bandwidth ratio giving lambda_actual = bwRatio x lanes x laneRate x S_payload/S "
                 "(the paper: 0.963 at BER 1e-7)",
                 bwRatio);
    cmd.AddValue("berMin", "lowest BER of the MTBF table", berMin);
    cmd.AddValue("berMax",
                 "highest BER of the MTBF table, at most 1e-2 (the paper's approximations are "
                 "for BER << 1)",
                 berMax);
    cmd.AddValue("stepsPerDecade", "BER points per decade, 1..100 (the paper: 4)", stepsText);
    cmd.AddValue("directLinkRate", "direct-link line rate in bit/s, (0, 1e13]", directLinkRate);
    cmd.AddValue("prefix", "prefix of the CSV files written", prefix);
    cmd.Parse(argc, argv);

    try
    {
        using namespace riflexample;
        // An analytic program: no simulation object reads an attribute.
        RefuseIneffectiveAttributes(argc, argv, {"ns3::"}, "this analytic program");
        const auto lanes = static_cast<uint32_t>(ParseUnsigned("--lanes", lanesText, 1, 64));
        const auto stepsPerDecade
            = static_cast<uint32_t>(ParseUnsigned("--stepsPerDecade", stepsText, 1, 100));
        RIFL_CHECK_ARG(!(bwRatio > 0 && bwRatio <= 1),
                       "--bwRatio = " << bwRatio << " is out of range (0, 1]");
        RIFL_CHECK_ARG(!(berMin > 0 && berMin <= berMax && berMax <= 1e-2),
                       "--berMin = "
                           << berMin << " and --berMax = " << berMax
                           << " must satisfy 0 < berMin <= berMax <= 1e-2 (the paper's weight-4 "
                              "approximations are for BER << 1: above 1e-2 they lose "
                              "meaning, and they exceed probability 1 near 5e-2)");
        RIFL_CHECK_ARG(!(laneRate > 0 && laneRate <= 1e13),
                       "--laneRate = " << laneRate << " is outside (0, 1e13] bit/s");
        RIFL_CHECK_ARG(!(directLinkRate > 0 && directLinkRate <= 1e13),
                       "--directLinkRate = " << directLinkRate << " is outside (0, 1e13] bit/s");

        using M = LinkReliabilityModel;

        // 1. Framing efficiency.
        const std::vector<uint32_t> sizes
            = {1, 16, 30, 31, 32, 60, 62, 63, 64, 128, 256, 512, 1024, 1500, 4096, 8192};
        std::ofstream eff = OpenCsv(prefix + "-efficiency.csv");
        eff << "payload_bytes,rifl256_efficiency,rifl512_efficiency,direct_link_efficiency\n";
        std::cout << "Framing efficiency (payload / line bits)\n"
                  << "  bytes   RIFL256   RIFL512   direct-link\n";
        for (uint32_t p : sizes)
        {
            const double e256 = M::RiflFramingEfficiency(p, 256);
            const double e512 = M::RiflFramingEfficiency(p, 512);
            const double eDl
                = p <= 65535 ? 8.0 * p / (192.0 * DirectLinkFlit::NumMicroPackets(p)) : NAN;
            std::cout << std::setw(7) << p << std::fixed << std::setprecision(2) << std::setw(9)
                      << 100 * e256 << "%" << std::setw(9) << 100 * e512 << "%" << std::setw(12)
                      << 100 * eDl << "%\n";
            eff << p << "," << e256 << "," << e512 << "," << eDl << "\n";
        }
        std::cout << "  asymptotes: RIFL256 " << 100 * M::RiflFramingAsymptote(256) << "%, RIFL512 "
                  << 100 * M::RiflFramingAsymptote(512) << "%\n\n";

        // 2. Buffer sizing.
        std::ofstream siz = OpenCsv(prefix + "-sizing.csv");
        siz << "frame_bits,cable_m,rtt_ns,rtt_frames,frame_id_width,retrans_buffer_frames,"
               "fc_buffer_frames,thr_on_frames,thr_off_frames,replay_slots\n";
        std::cout << "Buffer sizing at " << laneRate / 1e9
                  << " Gb/s per lane (RTL rule: 2^FID >= 32 + round(RTT x rate / S), "
                     "RTT = 2 (80 ns + L x 3.34 ns/m))\n"
                  << "  frame  cable_m  RTT_ns  RTT_frames  FID  D     FC  Thr_ON  Thr_OFF  "
                     "replay\n";
        for (uint32_t s : {256U, 512U})
        {
            for (double len : {1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 500.0, 1000.0})
            {
                const uint32_t fid = M::RiflFrameIdWidth(laneRate, len, s);
                const double rtt = M::RiflSizingRtt(len);
                std::cout << std::setw(7) << s << std::setw(9) << std::setprecision(0) << len
                          << std::setw(8) << std::setprecision(1) << rtt * 1e9 << std::setw(12)
                          << M::RiflRttFrames(laneRate, len, s) << std::setw(5) << fid
                          << std::setw(6) << (1U << fid) << std::setw(6)
                          << M::RiflFcBufferFrames(fid) << std::setw(8) << M::RiflFcThresholdOn(fid)
                          << std::setw(9) << M::RiflFcThresholdOff(fid) << std::setw(8)
                          << M::RiflReplaySlots(fid) << "\n";
                siz << s << "," << len << "," << rtt * 1e9 << ","
                    << M::RiflRttFrames(laneRate, len, s) << "," << fid << "," << (1U << fid) << ","
                    << M::RiflFcBufferFrames(fid) << "," << M::RiflFcThresholdOn(fid) << ","
                    << M::RiflFcThresholdOff(fid) << "," << M::RiflReplaySlots(fid) << "\n";
            }
        }
        std::cout
            << "  Paper Eq. 1-4: S_retrans at 100 Gb/s, T_circuit 100 ns, 500 m, C = 3e8 m/s: "
            << std::setprecision(1) << M::RiflRetransBufferBytes(100e9, 100e-9, 500.0) / 1e3
            << " KB (published: <= 45 KB)\n\n";

        // 3. MTBF over BER.
        std::ofstream mt = OpenCsv(prefix + "-mtbf.csv");
        mt << "ber,rifl256_pud_paper,rifl256_pud_exact,rifl256_mtbf_years_paper,"
              "rifl256_mtbf_years_exact,rifl512_pud_paper,rifl512_pud_exact,"
              "rifl512_mtbf_years_paper,rifl512_mtbf_years_exact,direct_link_pud_approx,"
              "direct_link_pud_exact,direct_link_mtbf_years_approx,direct_link_mtbf_years_exact\n";
        const double lambda256 = bwRatio * lanes * laneRate * 240.0 / 256.0;
        const double lambda512 = bwRatio * lanes * laneRate * 496.0 / 512.0;
        const double dlFlitsPerSecond = directLinkRate / 192.0;
        std::cout << std::defaultfloat << std::setprecision(6)
                  << "MTBF in years (lambda_actual = " << bwRatio << " x " << lanes << " x "
                  << laneRate / 1e9
                  << " Gb/s x S_payload/S; direct-link: one 192-bit micro-packet per slot at "
                  << directLinkRate / 1e9 << " Gb/s)\n"
                  << "  BER        RIFL256 paper  RIFL256 exact  RIFL512 paper  RIFL512 exact  "
                     "DL approx      DL exact\n";
        const int n = static_cast<int>(std::llround(std::log10(berMax / berMin) * stepsPerDecade));
        for (int i = 0; i <= n; ++i)
        {
            const double ber = berMin * std::pow(10.0, static_cast<double>(i) / stepsPerDecade);
            const double y = M::SECONDS_PER_YEAR;
            const double p256 = M::RiflUndetectedPaper(ber, 256);
            const double x256 = M::RiflUndetectedExact(ber, 256);
            const double p512 = M::RiflUndetectedPaper(ber, 512);
            const double x512 = M::RiflUndetectedExact(ber, 512);
            const double pdl = M::DirectLinkUndetectedPaper(ber);
            const double xdl = M::DirectLinkUndetectedExact(ber);
            const double m[6] = {M::MtbfSeconds(lambda256 / 256, p256) / y,
                                 M::MtbfSeconds(lambda256 / 256, x256) / y,
                                 M::MtbfSeconds(lambda512 / 512, p512) / y,
                                 M::MtbfSeconds(lambda512 / 512, x512) / y,
                                 M::MtbfSeconds(dlFlitsPerSecond, pdl) / y,
                                 M::MtbfSeconds(dlFlitsPerSecond, xdl) / y};
            std::cout << "  " << std::scientific << std::setprecision(2) << ber;
            for (double v : m)
            {
                std::cout << std::setw(15) << v;
            }
            std::cout << "\n";
            mt << std::scientific << std::setprecision(6) << ber << "," << p256 << "," << x256
               << "," << m[0] << "," << m[1] << "," << p512 << "," << x512 << "," << m[2] << ","
               << m[3] << "," << pdl << "," << xdl << "," << m[4] << "," << m[5] << "\n";
        }
        const std::vector<uint64_t> a256 = M::RiflAcceptedSpectrum(256);
        const std::vector<uint64_t> a512 = M::RiflAcceptedSpectrum(512);
        const std::vector<uint64_t> dle = M::DirectLinkInterleaveSpectrum(0);
        const std::vector<uint64_t> dlo = M::DirectLinkInterleaveSpectrum(1);
        std::cout << std::defaultfloat << "  accepted weight-4 patterns: RIFL256 A4 = " << a256[4]
                  << ", RIFL512 A4 = " << a512[4] << ", direct-link interleaves A4 = " << dle[4]
                  << " / " << dlo[4] << " (A1..A3 = 0 for all)\n";
        std::cout << "Wrote " << prefix << "-efficiency.csv, " << prefix << "-sizing.csv, "
                  << prefix << "-mtbf.csv\n";
    }
    catch (const std::exception& e)
    {
        std::cerr << "rifl-reliability-tables: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
