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
 * data/data-mining.cdf); their headers cite the published tables (sizes in
 * 1460-byte packets, converted to bytes). cmake --install puts them in
 * PREFIX/share/ns3-rifl/ (RIFL_DATA_INSTALL_DIR), where the installed
 * library finds them relative to its own location, whatever the prefix;
 * $RIFL_DATA_DIR overrides (see DataSearchPath()).
 */
class DcnFlowSizeDistribution
{
  public:
    /// \brief An empty distribution (Load one before sampling).
    DcnFlowSizeDistribution() = default;

    /**
     * \brief Read a CDF file.
     * \param fileOrName a path; or "web-search" / "data-mining", or any other
     *        bare name (no '/' or '.') that is not a file in the working
     *        directory, for NAME.cdf in the data directories (DataSearchPath()).
     * \return the distribution (std::invalid_argument naming file, line and rule on bad
     *         content; naming the file and every directory searched when a name is not found).
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
     * \brief The directories searched for a named distribution, in order.
     *
     * $RIFL_DATA_DIR when set and not empty; then the module's own data
     * directory: for the library in its build tree the source tree's data/,
     * for an installed library the directory RIFL_DATA_DIR_FROM_LIBRARY relative to its own
     * (../share/ns3-rifl for the default layout; an installed library never
     * looks into the source tree); then ./data and ./contrib/rifl/data
     * (relative to the working directory).
     * \return the directories.
     */
    static std::vector<std::string> DataSearchPath();

    /**
     * \brief Where a shipped distribution's file is.
     * \param name "web-search" or "data-mining" (or any file name in the data directories;
     *        a name without '.' means name.cdf).
     * \return the first existing file in DataSearchPath(), or an empty string.
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
