/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcn-flow-size-distribution.h"

#include "ns3/boolean.h"
#include "ns3/rifl-check.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ns3
{

DcnFlowSizeDistribution
DcnFlowSizeDistribution::Parse(const std::string& text, const std::string& name)
{
    DcnFlowSizeDistribution d;
    d.m_source = name;
    std::istringstream in(text);
    std::string line;
    uint32_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.erase(hash);
        }
        for (char& c : line)
        {
            if (c == ',' || c == '\t' || c == '\r')
            {
                c = ' ';
            }
        }
        std::istringstream fields(line);
        std::vector<std::string> tok;
        std::string t;
        while (fields >> t)
        {
            tok.push_back(t);
        }
        if (tok.empty())
        {
            continue;
        }
        RIFL_CHECK_ARG(tok.size() != 2, name << ":" << lineNo
                                             << ": expected \"size_bytes cdf\", got " << tok.size()
                                             << " fields");
        double v[2];
        for (int i = 0; i < 2; ++i)
        {
            char* end = nullptr;
            v[i] = std::strtod(tok[i].c_str(), &end);
            RIFL_CHECK_ARG(end == tok[i].c_str() || *end != '\0' || !std::isfinite(v[i]),
                           name << ":" << lineNo << ": " << (i == 0 ? "size" : "cdf") << " \""
                                << tok[i] << "\" is not a number");
        }
        RIFL_CHECK_ARG(!(v[0] > 0),
                       name << ":" << lineNo << ": size " << tok[0] << " must be > 0 bytes");
        RIFL_CHECK_ARG(!(v[1] >= 0 && v[1] <= 1),
                       name << ":" << lineNo << ": cdf " << tok[1] << " is outside [0, 1]");
        if (!d.m_points.empty())
        {
            RIFL_CHECK_ARG(v[0] < d.m_points.back().first,
                           name << ":" << lineNo << ": size " << tok[0]
                                << " is below the previous point's " << d.m_points.back().first);
            RIFL_CHECK_ARG(v[1] < d.m_points.back().second,
                           name << ":" << lineNo << ": cdf " << tok[1]
                                << " is below the previous point's " << d.m_points.back().second);
        }
        d.m_points.emplace_back(v[0], v[1]);
    }
    RIFL_CHECK_ARG(d.m_points.empty(), name << ": no \"size_bytes cdf\" points");
    RIFL_CHECK_ARG(d.m_points.back().second != 1.0, name << ":" << lineNo << ": the last cdf is "
                                                         << d.m_points.back().second
                                                         << ", it must be 1");
    return d;
}

std::string
DcnFlowSizeDistribution::FindDataFile(const std::string& name)
{
    const std::string file = name.find('.') == std::string::npos ? name + ".cdf" : name;
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("RIFL_DATA_DIR"))
    {
        dirs.emplace_back(env);
    }
#ifdef RIFL_DATA_DIR
    dirs.emplace_back(RIFL_DATA_DIR);
#endif
    dirs.emplace_back("data");
    dirs.emplace_back("contrib/rifl/data");
    for (const std::string& d : dirs)
    {
        const std::string p = d + "/" + file;
        if (std::ifstream(p).good())
        {
            return p;
        }
    }
    return "";
}

DcnFlowSizeDistribution
DcnFlowSizeDistribution::Load(const std::string& fileOrName)
{
    RIFL_CHECK_ARG(fileOrName.empty(), "flowSizeCdf: the file name is empty");
    std::string path = fileOrName;
    if (fileOrName == "web-search" || fileOrName == "data-mining")
    {
        path = FindDataFile(fileOrName);
        RIFL_CHECK_ARG(path.empty(), "flowSizeCdf = \"" << fileOrName << "\": the shipped file "
                                                        << fileOrName
                                                        << ".cdf was not found (set RIFL_DATA_DIR "
                                                           "to the module's data/ directory)");
    }
    std::ifstream f(path);
    RIFL_CHECK_ARG(!f, "flowSizeCdf = \"" << path << "\" cannot be opened");
    std::ostringstream text;
    text << f.rdbuf();
    return Parse(text.str(), path);
}

const std::vector<std::pair<double, double>>&
DcnFlowSizeDistribution::GetPoints() const
{
    return m_points;
}

double
DcnFlowSizeDistribution::GetMeanBytes() const
{
    // Mass at the first point (cdf of the first point), then uniform on each segment.
    double mean = m_points.empty() ? 0.0 : m_points.front().first * m_points.front().second;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const double p = m_points[i].second - m_points[i - 1].second;
        mean += p * 0.5 * (m_points[i].first + m_points[i - 1].first);
    }
    return mean;
}

const std::string&
DcnFlowSizeDistribution::GetSource() const
{
    return m_source;
}

Ptr<EmpiricalRandomVariable>
DcnFlowSizeDistribution::MakeVariable(int64_t stream) const
{
    RIFL_CHECK_ARG(m_points.empty(), "DcnFlowSizeDistribution: no distribution loaded");
    Ptr<EmpiricalRandomVariable> v = CreateObject<EmpiricalRandomVariable>();
    v->SetInterpolate(true);
    for (const auto& [bytes, cdf] : m_points)
    {
        v->CDF(bytes, cdf);
    }
    v->SetStream(stream);
    return v;
}

} // namespace ns3
