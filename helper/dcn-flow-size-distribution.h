/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_DCN_FLOW_SIZE_DISTRIBUTION_H
#define RIFL_DCN_FLOW_SIZE_DISTRIBUTION_H

#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-ns3
 * \brief An empirical flow-size distribution read from a CDF file.
 *
 * The file holds one point per line, "size_bytes cdf" (whitespace or a comma
 * between them); blank lines and everything after '#' are ignored. Sizes must
 * be > 0 and non-decreasing, the cdf values non-decreasing in [0, 1], and the
 * last one exactly 1. Any other content throws std::invalid_argument naming
 * the file and the line ("web.cdf:7: cdf 0.4 is below the previous point's
 * 0.5"). Sizes are drawn by linear interpolation between the points (ns-3's
 * EmpiricalRandomVariable with Interpolate = true, as the pFabric and HPCC
 * traffic generators do); the mean is that of the interpolated distribution.
 *
 * The module ships the two classic data-center workloads, resolved by name:
 * "web-search" (DCTCP, data/web-search.cdf) and "data-mining" (VL2,
 * data/data-mining.cdf); their headers cite the sources.
 */
class DcnFlowSizeDistribution
{
  public:
    /// \brief An empty distribution (Load one before sampling).
    DcnFlowSizeDistribution() = default;

    /**
     * \brief Read a CDF file.
     * \param fileOrName a path, or "web-search" / "data-mining" for the shipped files.
     * \return the distribution (std::invalid_argument naming file and line on bad content).
     */
    static DcnFlowSizeDistribution Load(const std::string& fileOrName);

    /**
     * \brief Parse CDF text.
     * \param text the content.
     * \param name the name used in error messages (e.g. the file name).
     * \return the distribution.
     */
    static DcnFlowSizeDistribution Parse(const std::string& text, const std::string& name);

    /**
     * \brief Where a shipped distribution's file is.
     * \param name "web-search" or "data-mining" (or any file name in data/).
     * \return the path found (first of $RIFL_DATA_DIR, the source tree's data/
     *         directory, ./data, ./contrib/rifl/data), or an empty string.
     */
    static std::string FindDataFile(const std::string& name);

    /// \return the points (size in bytes, cdf).
    const std::vector<std::pair<double, double>>& GetPoints() const;

    /// \return the mean of the interpolated distribution, bytes.
    double GetMeanBytes() const;

    /// \return where the distribution came from.
    const std::string& GetSource() const;

    /**
     * \brief A random variable drawing flow sizes (bytes, >= 1 once rounded).
     * \param stream the stream to fix (AssignStreams), >= 0.
     * \return the variable.
     */
    Ptr<EmpiricalRandomVariable> MakeVariable(int64_t stream) const;

  private:
    std::vector<std::pair<double, double>> m_points; //!< (bytes, cdf)
    std::string m_source;                            //!< file or name
};

} // namespace ns3

#endif /* RIFL_DCN_FLOW_SIZE_DISTRIBUTION_H */
