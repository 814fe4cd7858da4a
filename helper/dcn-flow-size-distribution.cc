/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcn-flow-size-distribution.h"

#include "ns3/boolean.h"
#include "ns3/rifl-check.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace ns3
{

namespace
{

/// A function of this library: its address tells dladdr() which file the library is.
void
LibraryAnchor()
{
}

/**
 * \brief The module's own data directory: the source tree's data/ when this
 *        library is the one in the build tree, otherwise the install-relative
 *        directory (RIFL_DATA_DIR_FROM_LIBRARY, relative to the library's directory).
 * \return the directory, or "" when the build defines neither (waf builds).
 */
std::string
ModuleDataDirectory()
{
#if defined(RIFL_BUILD_LIBRARY_DIR) && defined(RIFL_SOURCE_DATA_DIR) \
    && defined(RIFL_DATA_DIR_FROM_LIBRARY)
    namespace fs = std::filesystem;
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&LibraryAnchor), &info) == 0 || info.dli_fname == nullptr
        || *info.dli_fname == '\0')
    {
        return "";
    }
    std::error_code ec;
    const fs::path libDir = fs::canonical(info.dli_fname, ec).parent_path();
    if (ec)
    {
        return "";
    }
    const fs::path buildDir = fs::canonical(RIFL_BUILD_LIBRARY_DIR, ec);
    if (!ec && libDir == buildDir)
    {
        return RIFL_SOURCE_DATA_DIR; // not installed: the data/ next to the sources
    }
    fs::path dir = (libDir / RIFL_DATA_DIR_FROM_LIBRARY).lexically_normal();
    if (!dir.has_filename())
    {
        dir = dir.parent_path(); // no trailing '/'
    }
    return dir.string();
#else
    return "";
#endif
}

/**
 * \brief The file name a shipped-distribution name stands for.
 * \param name "web-search", or a file name ("x" means "x.cdf").
 * \return the file name.
 */
std::string
DataFileName(const std::string& name)
{
    return name.find('.') == std::string::npos ? name + ".cdf" : name;
}

} // namespace

DcnFlowSizeDistribution
DcnFlowSizeDistribution::Parse(const std::string& text, const std::string& name)
{
    DcnFlowSizeDistribution d;
    d.m_source = name;
    RIFL_CHECK_ARG(text.find('\0') != std::string::npos,
                   name << ": holds a NUL byte at offset " << text.find('\0')
                        << ": not a text file of \"size_bytes cdf\" lines");
    std::istringstream in(text);
    std::string line;
    uint32_t lineNo = 0;
    uint32_t lastPointLine = 0; // the line of the last point read
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
        RIFL_CHECK_ARG(tok.size() != 2,
                       name << ":" << lineNo << ": expected \"size_bytes cdf\", got " << tok.size()
                            << " fields"
                            << (tok.size() == 3 ? " (an ns-2/pFabric \"packets 1 cdf\" line? "
                                                  "convert it: size_bytes = packets x 1460, "
                                                  "middle column dropped)"
                                                : ""));
        double v[2];
        for (int i = 0; i < 2; ++i)
        {
            char* end = nullptr;
            v[i] = std::strtod(tok[i].c_str(), &end);
            RIFL_CHECK_ARG(end == tok[i].c_str() || *end != '\0' || !std::isfinite(v[i]),
                           name << ":" << lineNo << ": " << (i == 0 ? "size" : "cdf") << " \""
                                << tok[i] << "\" is not a number");
        }
        RIFL_CHECK_ARG(!(v[0] > 0 && v[0] <= 4294967295.0),
                       name << ":" << lineNo << ": size " << tok[0]
                            << " is outside (0, 2^32 - 1] bytes (the range of flowBytes)");
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
        lastPointLine = lineNo;
    }
    RIFL_CHECK_ARG(d.m_points.empty(),
                   name << ": no \"size_bytes cdf\" points (the file is empty or only comments)");
    RIFL_CHECK_ARG(d.m_points.back().second != 1.0,
                   name << ":" << lastPointLine << ": the last cdf is " << d.m_points.back().second
                        << ", it must be 1");
    return d;
}

std::vector<std::string>
DcnFlowSizeDistribution::DataSearchPath()
{
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("RIFL_DATA_DIR"); env != nullptr && *env != '\0')
    {
        dirs.emplace_back(env);
    }
    if (const std::string own = ModuleDataDirectory(); !own.empty())
    {
        dirs.push_back(own);
    }
    dirs.emplace_back("./data");
    dirs.emplace_back("./contrib/rifl/data");
    return dirs;
}

std::string
DcnFlowSizeDistribution::FindDataFile(const std::string& name)
{
    const std::string file = DataFileName(name);
    for (const std::string& d : DataSearchPath())
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
    // The shipped names, and any other bare name (no '/', no '.') that is not a
    // file in the working directory, are looked up in the data directories
    // (as <name>.cdf); anything else is a path.
    const bool shipped = fileOrName == "web-search" || fileOrName == "data-mining";
    if (shipped
        || (fileOrName.find_first_of("/.") == std::string::npos
            && !std::ifstream(fileOrName).good()))
    {
        path = FindDataFile(fileOrName);
        if (path.empty())
        {
            std::ostringstream searched;
            const char* env = std::getenv("RIFL_DATA_DIR");
            if (env == nullptr || *env == '\0')
            {
                searched << "$RIFL_DATA_DIR (unset), ";
            }
            const std::vector<std::string> dirs = DataSearchPath();
            for (std::size_t i = 0; i < dirs.size(); ++i)
            {
                searched << (i > 0 ? ", " : "") << dirs[i];
            }
            RIFL_CHECK_ARG(true, "flowSizeCdf = \""
                                     << fileOrName << "\": " << DataFileName(fileOrName)
                                     << " was not found; searched " << searched.str()
                                     << " (set RIFL_DATA_DIR to a directory holding it)");
        }
    }
    struct stat st
    {
    };
    RIFL_CHECK_ARG(::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode),
                   "flowSizeCdf = \"" << path << "\" is a directory, not a file");
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
