/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_EXAMPLE_ARGS_H
#define RIFL_EXAMPLE_ARGS_H

/**
 * \file
 * \ingroup rifl
 * Command-line checks shared by the module's example and benchmark programs:
 * strict parsing of numbers (no trailing characters, no fractions for counts, no
 * wrapping of negatives), ranges named in the error, times converted without
 * truncation, attribute values checked against the attribute's checker before
 * ns-3 would abort on them, output paths checked before a run, and a main()
 * wrapper that turns an exception into one line and exit status 1.
 */

#include "ns3/attribute.h"
#include "ns3/nstime.h"
#include "ns3/rifl-check.h"
#include "ns3/type-id.h"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{
namespace riflexample
{

/**
 * \brief Parse an unsigned integer option strictly.
 * \param option the option's name, with its dashes (for the message).
 * \param text the option's text.
 * \param lo smallest allowed value.
 * \param hi largest allowed value.
 * \return the value.
 * \throws std::invalid_argument naming the option and [lo, hi] unless \p text is a
 *         whole decimal number in that range.
 */
inline uint64_t
ParseUnsigned(const std::string& option, const std::string& text, uint64_t lo, uint64_t hi)
{
    bool ok = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    uint64_t v = 0;
    if (ok)
    {
        errno = 0;
        char* end = nullptr;
        const unsigned long long parsed = std::strtoull(text.c_str(), &end, 10);
        ok = errno == 0 && *end == '\0';
        v = parsed;
    }
    RIFL_CHECK_ARG(!ok || v < lo || v > hi, option << " = " << (text.empty() ? "(empty)" : text)
                                                   << " is not a whole number in [" << lo << ", "
                                                   << hi << "]");
    return v;
}

/**
 * \brief Parse a real-number option whose range may be open at either end, named as it
 *        is in the message (e.g. "(0, 1]").
 * \param option the option's name, with its dashes.
 * \param text the option's text.
 * \param lo the lower end.
 * \param loOpen whether \p lo itself is excluded.
 * \param hi the upper end.
 * \param hiOpen whether \p hi itself is excluded.
 * \return the value.
 * \throws std::invalid_argument naming the option and the range.
 */
inline double
ParseDoubleIn(const std::string& option, const std::string& text, double lo, bool loOpen, double hi,
              bool hiOpen)
{
    char* end = nullptr;
    errno = 0;
    const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
    const bool ok = !text.empty() && *end == '\0' && errno == 0 && std::isfinite(v)
                    && (loOpen ? v > lo : v >= lo) && (hiOpen ? v < hi : v <= hi);
    RIFL_CHECK_ARG(!ok, option << " = " << (text.empty() ? "(empty)" : text)
                               << " is not a number in " << (loOpen ? "(" : "[") << lo << ", " << hi
                               << (hiOpen ? ")" : "]"));
    return v;
}

/**
 * \brief Parse a real-number option strictly (finite, no trailing characters).
 * \param option the option's name, with its dashes.
 * \param text the option's text.
 * \param lo smallest allowed value.
 * \param hi largest allowed value.
 * \param hiOpen whether \p hi itself is refused: [lo, hi).
 * \return the value.
 * \throws std::invalid_argument naming the option and the range.
 */
inline double
ParseDouble(const std::string& option, const std::string& text, double lo, double hi,
            bool hiOpen = false)
{
    return ParseDoubleIn(option, text, lo, false, hi, hiOpen);
}

/**
 * \brief Parse a comma-separated list of real numbers, each checked as ParseDouble().
 * \param option the option's name, with its dashes.
 * \param text the list.
 * \param lo smallest allowed value.
 * \param hi largest allowed value.
 * \param hiOpen whether \p hi itself is refused.
 * \return the values (at least one).
 * \throws std::invalid_argument naming the option, the bad item and [lo, hi].
 */
inline std::vector<double>
ParseDoubleList(const std::string& option, const std::string& text, double lo, double hi,
                bool hiOpen = false)
{
    std::vector<double> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        out.push_back(ParseDouble(option + " item", item, lo, hi, hiOpen));
    }
    RIFL_CHECK_ARG(out.empty() || (!text.empty() && text.back() == ','),
                   option << " = '" << text << "' must be a comma-separated list of numbers");
    return out;
}

/**
 * \brief Check a real-number option already parsed by ns-3's CommandLine.
 * \param option the option's name, with its dashes.
 * \param v its value.
 * \param lo smallest allowed value.
 * \param hi largest allowed value.
 * \throws std::invalid_argument naming the option and [lo, hi] if \p v is not finite or
 *         outside the range.
 */
inline void
CheckDouble(const std::string& option, double v, double lo, double hi)
{
    RIFL_CHECK_ARG(!std::isfinite(v) || v < lo || v > hi,
                   option << " = " << v << " is outside [" << lo << ", " << hi << "]");
}

/**
 * \brief A duration in microseconds as a Time, checked and rounded to the nanosecond
 *        (RiflMicroseconds(): MicroSeconds() would truncate a fraction).
 * \param option the option's name, with its dashes.
 * \param us the duration in microseconds.
 * \param loUs smallest allowed value (a positive minimum also refuses values that round
 *        to 0 ns).
 * \param hiUs largest allowed value.
 * \return the Time.
 * \throws std::invalid_argument naming the option and [loUs, hiUs].
 */
inline Time
MicrosecondsOption(const std::string& option, double us, double loUs, double hiUs)
{
    RIFL_CHECK_ARG(!std::isfinite(us) || us < loUs || us > hiUs,
                   option << " = " << us << " us is outside [" << loUs << ", " << hiUs << "] us");
    const Time t = RiflMicroseconds(us);
    RIFL_CHECK_ARG(loUs > 0 && t.IsZero(),
                   option << " = " << us << " us is below the 1 ns resolution of the simulation");
    return t;
}

/**
 * \brief Check a value against an attribute's checker before ns-3 sets it (where ns-3
 *        aborts on a bad value instead of reporting it).
 * \param option the option the value came from, with its dashes.
 * \param typeName the TypeId name, e.g. "ns3::RiflChannel".
 * \param attribute the attribute's name.
 * \param value the value.
 * \throws std::invalid_argument naming the option, the attribute, its help text (which
 *         gives the range) and its checker's type information.
 */
inline void
CheckAttribute(const std::string& option, const std::string& typeName, const std::string& attribute,
               const AttributeValue& value)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    RIFL_CHECK_ARG(!TypeId::LookupByNameFailSafe(typeName, &tid)
                       || !tid.LookupAttributeByName(attribute, &info),
                   "internal: no attribute " << typeName << "::" << attribute);
    RIFL_CHECK_ARG(!info.checker->CreateValidValue(value),
                   option << " = " << value.SerializeToString(info.checker)
                          << " is not accepted by " << typeName << "::" << attribute << " ("
                          << info.help << "; " << info.checker->GetUnderlyingTypeInformation()
                          << ")");
}

/**
 * \brief Refuse --ns3::Type::Attribute=value arguments that would change nothing: a
 *        read-only attribute (ns-3's CommandLine accepts it silently), or an attribute
 *        of a class the program does not use.
 * \param argc argument count.
 * \param argv arguments.
 * \param unusedPrefixes TypeId name prefixes of classes the program never creates,
 *        e.g. "ns3::DirectLink".
 * \param program what the program simulates, for the message (e.g. "a RIFL link").
 * \param setByOptions attributes the program sets itself (overriding a default from the
 *        command line), "ns3::Type::Attribute" -> how (e.g. "use --ber").
 * \throws std::invalid_argument naming the argument.
 */
inline void
RefuseIneffectiveAttributes(int argc, char* argv[], const std::vector<std::string>& unusedPrefixes,
                            const std::string& program,
                            const std::map<std::string, std::string>& setByOptions = {})
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        const std::string::size_type eq = arg.find('=');
        if (arg.rfind("--ns3::", 0) != 0 || eq == std::string::npos)
        {
            continue;
        }
        const std::string path = arg.substr(2, eq - 2); // ns3::Type::Attribute
        const std::string::size_type sep = path.rfind("::");
        const std::string typeName = path.substr(0, sep);
        const std::string attribute = path.substr(sep + 2);
        const auto set = setByOptions.find(path);
        RIFL_CHECK_ARG(set != setByOptions.end(),
                       "--" << path << " changes nothing: the program sets it itself ("
                            << set->second << ")");
        for (const std::string& prefix : unusedPrefixes)
        {
            RIFL_CHECK_ARG(typeName.rfind(prefix, 0) == 0, "--" << path
                                                                << " changes nothing: " << program
                                                                << " uses no " << typeName);
        }
        TypeId tid;
        TypeId::AttributeInformation info;
        if (TypeId::LookupByNameFailSafe(typeName, &tid)
            && tid.LookupAttributeByName(attribute, &info))
        {
            RIFL_CHECK_ARG((info.flags & (TypeId::ATTR_SET | TypeId::ATTR_CONSTRUCT)) == 0,
                           "--" << path << " is read-only (" << info.help << ")");
        }
    }
}

/**
 * \brief Check before a run that an output file can be written: it is not a
 *        directory, and it can be opened for appending (an existing file is kept as it
 *        is; one created by the check is removed again).
 * \param option the option's name, with its dashes.
 * \param path the path.
 * \throws std::invalid_argument naming the option and the path.
 */
inline void
RequireWritable(const std::string& option, const std::string& path)
{
    RIFL_CHECK_ARG(path.empty(), option << " is empty: give a file path");
    struct stat st
    {
    };
    const bool existed = ::stat(path.c_str(), &st) == 0;
    RIFL_CHECK_ARG(existed && S_ISDIR(st.st_mode),
                   option << " = " << path << " is a directory, not a file");
    {
        std::ofstream f(path, std::ios::app);
        RIFL_CHECK_ARG(!f, option << " = " << path << " cannot be written");
    }
    if (!existed)
    {
        std::remove(path.c_str());
    }
}

/**
 * \brief Run a program's body: an exception becomes one line on stderr,
 *        "<program>: <what>", and exit status 1 (never a terminate() abort).
 * \param program the program's name.
 * \param body the body.
 * \return the body's exit status, or 1 after an exception.
 */
inline int
RunMain(const char* program, const std::function<int()>& body)
{
    try
    {
        return body();
    }
    catch (const std::exception& e)
    {
        std::cerr << program << ": " << e.what() << "\n";
        return 1;
    }
}

} // namespace riflexample
} // namespace ns3

#endif /* RIFL_EXAMPLE_ARGS_H */
