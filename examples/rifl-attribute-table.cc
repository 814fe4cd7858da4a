/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rifl-attribute-table: write the reST table of every attribute of the
 * module's classes (every TypeId of group "Rifl"): value type, default, the
 * values its checker allows, the help text, and the error an out-of-range and
 * a malformed value produce, obtained by feeding them through
 * ScenarioAttributes (the module's checked path, used by the scenarios and
 * the Python bindings). Two more tables list the checks made in attribute
 * setters and when a link starts, with the errors they produce, obtained by
 * making each bad setting. Nothing in the output is written by hand.
 *
 *   rifl-attribute-table --output=doc/rifl-attributes.rst   (write the file)
 *   rifl-attribute-table --check=doc/rifl-attributes.rst    (exit 1 if it is stale)
 */

#include "ns3/core-module.h"
#include "ns3/direct-link-helper.h"
#include "ns3/network-module.h"
#include "ns3/rifl-helper.h"
#include "ns3/scenario-attributes.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \brief Escape text for a reST paragraph (inline markup characters).
 * \param s the text.
 * \return the escaped text, on one line.
 */
std::string
Rst(const std::string& s)
{
    std::string o;
    for (char c : s)
    {
        if (c == '\\' || c == '*' || c == '`' || c == '|' || c == '_')
        {
            o += '\\';
        }
        o += (c == '\n' ? ' ' : c);
    }
    return o;
}

/**
 * \brief Inline literal text, or an em dash if empty.
 * \param s the text (without two backquotes in a row).
 * \return ``s``.
 */
std::string
Lit(const std::string& s)
{
    if (s.empty())
    {
        return "\xE2\x80\x94";
    }
    if (s.front() == ' ' || s.back() == ' ')
    {
        return "``\"" + s + "\"``";
    }
    return "``" + s + "``";
}

/**
 * \brief The low and high bounds a checker prints ("uint32_t 1:64" -> "1", "64").
 * \param info the attribute.
 * \param lo set to the low bound text.
 * \param hi set to the high bound text.
 * \return false if the checker prints no bounds.
 */
bool
Bounds(const TypeId::AttributeInformation& info, std::string& lo, std::string& hi)
{
    const std::string u = info.checker->GetUnderlyingTypeInformation();
    const std::size_t sp = u.rfind(' ');
    const std::size_t colon = u.find(':', sp == std::string::npos ? 0 : sp);
    if (sp == std::string::npos || colon == std::string::npos)
    {
        return false;
    }
    lo = u.substr(sp + 1, colon - sp - 1);
    hi = u.substr(colon + 1);
    return true;
}

/**
 * \brief A value just outside what the checker allows.
 * \param full "ns3::Class::Attribute".
 * \param info the attribute.
 * \return the value as text, empty if the checker allows every value of its type.
 */
std::string
OutOfRange(const std::string& full, const TypeId::AttributeInformation& info)
{
    const std::string type = info.checker->GetValueTypeName();
    const std::string allowed = ScenarioAttributes::AllowedValues(full);
    std::string lo;
    std::string hi;
    if (type == "ns3::EnumValue")
    {
        return "NoSuchValue";
    }
    if (allowed.empty() || !Bounds(info, lo, hi))
    {
        return "";
    }
    const bool hiOpen = allowed.rfind(">= ", 0) == 0;
    if (type == "ns3::UintegerValue")
    {
        const unsigned long long l = std::strtoull(lo.c_str(), nullptr, 10);
        const unsigned long long h = std::strtoull(hi.c_str(), nullptr, 10);
        return hiOpen ? (l > 0 ? std::to_string(l - 1) : "") : std::to_string(h + 1);
    }
    if (type == "ns3::IntegerValue")
    {
        const long long l = std::strtoll(lo.c_str(), nullptr, 10);
        const long long h = std::strtoll(hi.c_str(), nullptr, 10);
        return hiOpen ? std::to_string(l - 1) : std::to_string(h + 1);
    }
    if (type == "ns3::DoubleValue")
    {
        const double l = std::strtod(lo.c_str(), nullptr);
        const double h = std::strtod(hi.c_str(), nullptr);
        std::ostringstream os;
        if (hiOpen)
        {
            os << l - std::max(1.0, std::fabs(l));
        }
        else
        {
            os << h + std::max(1.0, std::fabs(h));
        }
        return os.str();
    }
    if (type == "ns3::TimeValue")
    {
        auto parse = [](std::string t)
        {
            if (!t.empty() && t[0] == '+')
            {
                t = t.substr(1);
            }
            return Time(t);
        };
        const Time bad = hiOpen ? parse(lo) - NanoSeconds(1) : parse(hi) * 2 + NanoSeconds(1);
        return std::to_string(bad.GetNanoSeconds()) + "ns";
    }
    return "";
}

/**
 * \brief A value of the wrong form for the attribute's value type.
 * \param info the attribute.
 * \return the text, empty if the type takes any text or has no parser check.
 */
std::string
Malformed(const TypeId::AttributeInformation& info)
{
    const std::string vt = info.checker->GetValueTypeName();
    const std::string type = vt.rfind("ns3::", 0) == 0 ? vt : "ns3::" + vt;
    if (type == "ns3::UintegerValue")
    {
        return "-1";
    }
    if (type == "ns3::IntegerValue")
    {
        return "1.5";
    }
    if (type == "ns3::DoubleValue")
    {
        return "1e-5x";
    }
    if (type == "ns3::TimeValue")
    {
        return "80 parsecs";
    }
    if (type == "ns3::DataRateValue")
    {
        return "28 Gbit";
    }
    if (type == "ns3::BooleanValue")
    {
        return "maybe";
    }
    return "";
}

/**
 * \brief The error ScenarioAttributes gives for a setting.
 * \param settings the attribute defaults.
 * \return the message ("accepted" if no error: a bug the table makes visible).
 */
std::string
ApplyError(const std::map<std::string, std::string>& settings)
{
    std::string msg = "ACCEPTED (no error)";
    try
    {
        ScenarioAttributes::Apply(settings);
    }
    catch (const std::invalid_argument& e)
    {
        msg = e.what();
    }
    Config::Reset();
    return msg;
}

/// A bad setting checked when a link starts or in an attribute setter.
struct Probe
{
    std::string link;                              //!< "rifl", "direct-link" or "object"
    std::map<std::string, std::string> attributes; //!< the settings
};

/**
 * \brief The checks made in attribute setters (std::invalid_argument thrown
 *        from SetAttribute / SetAttributeFailSafe or at construction).
 * \return the probes.
 */
std::vector<Probe>
SetterProbes()
{
    return {
        {"object", {{"ns3::IndependentBitErrorProcess::Ber", "1"}}},
        {"object", {{"ns3::GilbertElliottErrorProcess::BadBer", "1"}}},
        {"object", {{"ns3::ExactBitErrorModel::Ber", "1"}}},
        {"object", {{"ns3::DeterministicErrorProcess::Errors", "12:x"}}},
        {"object", {{"ns3::DirectLinkNetDevice::CrcPolynomial", "6"}}},
        {"object", {{"ns3::DirectLinkNetDevice::RetryBufferSize", "31"}}},
        {"object", {{"ns3::DirectLinkNetDevice::VcBufferSize", "4097"}}},
        {"object", {{"ns3::DirectLinkNetDevice::RetransLimit", "32"}}},
        {"object", {{"ns3::DirectLinkNetDevice::IpVc", "4"}}},
        {"object", {{"ns3::DirectLinkNetDevice::MaxMessageBytes", "65536"}}},
    };
}

/**
 * \brief The consistency checks made when a link starts.
 * \return the probes.
 */
std::vector<Probe>
StartProbes()
{
    return {
        {"rifl", {{"ns3::RiflNetDevice::FrameSize", "300"}}},
        {"rifl", {{"ns3::RiflNetDevice::FrameIdWidth", "3"}}},
        {"rifl", {{"ns3::RiflNetDevice::FcFifoDepth", "50"}}},
        {"rifl",
         {{"ns3::RiflNetDevice::ReplayTail", "Corrected"},
          {"ns3::RiflNetDevice::CorrectedTail", "5"}}},
        {"rifl", {{"ns3::RiflNetDevice::LaneRate", "0bps"}}},
        {"rifl", {{"ns3::RiflNetDevice::LaneRate", "2000Gbps"}}},
        {"rifl",
         {{"ns3::RiflNetDevice::FrameSize", "128"},
          {"ns3::RiflNetDevice::LaneRate", "100Gbps"},
          {"ns3::RiflChannel::CableLength", "1000"}}},
        {"rifl", {{"ns3::RiflChannel::Ber", "1"}}},
        {"direct-link", {{"ns3::DirectLinkNetDevice::AckTime", "3ms"}}},
        {"direct-link", {{"ns3::DirectLinkNetDevice::CrdNullTime", "0s"}}},
        {"direct-link",
         {{"ns3::DirectLinkNetDevice::Mtu", "4095"},
          {"ns3::DirectLinkNetDevice::MaxMessageBytes", "4096"}}},
        {"direct-link", {{"ns3::DirectLinkChannel::Ber", "1"}}},
    };
}

/**
 * \brief Make one bad setting and return the error.
 * \param p the probe.
 * \return the message.
 */
std::string
ProbeError(const Probe& p)
{
    std::string msg = "ACCEPTED (no error)";
    try
    {
        if (p.link == "object")
        {
            const auto& kv = *p.attributes.begin();
            const std::size_t sep = kv.first.rfind("::");
            ObjectFactory f;
            f.SetTypeId(kv.first.substr(0, sep));
            Ptr<Object> o = f.Create<Object>();
            if (!o->SetAttributeFailSafe(kv.first.substr(sep + 2), StringValue(kv.second)))
            {
                msg = "SetAttributeFailSafe returned false";
            }
        }
        else
        {
            // Two nodes, one link with the settings as defaults, started at time 0.
            ScenarioAttributes::Apply(p.attributes);
            NodeContainer nodes;
            nodes.Create(2);
            if (p.link == "rifl")
            {
                RiflHelper h;
                h.AssignStreams(h.Install(nodes), 1);
            }
            else
            {
                DirectLinkHelper h;
                h.AssignStreams(h.Install(nodes), 1);
            }
            Simulator::Stop(NanoSeconds(1));
            Simulator::Run();
        }
    }
    catch (const std::invalid_argument& e)
    {
        msg = e.what();
    }
    Simulator::Destroy();
    Config::Reset();
    return msg;
}

/**
 * \brief Settings as "Name = value" text.
 * \param attributes the settings.
 * \return the text.
 */
std::string
SettingsText(const std::map<std::string, std::string>& attributes)
{
    std::string t;
    for (const auto& kv : attributes)
    {
        t += (t.empty() ? "" : ", ") + kv.first.substr(5) + " = " + kv.second;
    }
    return t;
}

/**
 * \brief Write one two-column list-table of probes.
 * \param os the output.
 * \param probes the probes.
 */
void
ProbeTable(std::ostream& os, const std::vector<Probe>& probes)
{
    os << ".. list-table::\n   :header-rows: 1\n   :widths: 35 65\n\n"
       << "   * - Setting\n     - Error\n";
    for (const Probe& p : probes)
    {
        os << "   * - " << Lit(SettingsText(p.attributes)) << "\n     - " << Lit(ProbeError(p))
           << "\n";
    }
    os << "\n";
}

/**
 * \brief Generate the document.
 * \return the reST text.
 */
std::string
Generate()
{
    std::vector<TypeId> tids;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId t = TypeId::GetRegistered(i);
        if (t.GetGroupName() == "Rifl")
        {
            tids.push_back(t);
        }
    }
    std::sort(tids.begin(), tids.end(),
              [](const TypeId& a, const TypeId& b)
              {
                  return a.GetName() < b.GetName();
              });

    std::ostringstream os;
    os << ".. This file is generated by examples/rifl-attribute-table.cc; do not edit it.\n"
       << "   Regenerate: rifl-attribute-table --output=doc/rifl-attributes.rst\n"
       << "   (ctest rifl-attribute-table-current fails while it is stale).\n\n";
    os << "Attributes and their errors\n***************************\n\n";
    os << "Every attribute of the module's classes (the TypeIds of group ``Rifl``). "
          "*Allowed* is what the attribute's checker accepts; checks made when a link "
          "starts can narrow it (last table). Every bad value is reported by an "
          "exception (``std::invalid_argument``, a ``ValueError`` in Python) whose message "
          "names the parameter, the value and what is allowed, never by an abort. The "
          "*Bad values* column gives, for a value just outside the range and for text of "
          "the wrong form, the error that ``ScenarioAttributes::Apply`` (used by the "
          "scenarios, the sweeps and the Python bindings) reports; it checks the text's "
          "form before ns-3 parses it. ns-3's ``SetAttributeFailSafe`` and "
          "``Config::SetDefaultFailSafe`` reject the same out-of-range values (they "
          "return false). Every message below was produced by the code, not written by "
          "hand.\n\n";
    for (const TypeId& t : tids)
    {
        if (t.GetAttributeN() == 0)
        {
            continue;
        }
        const std::string title = t.GetName();
        os << title << "\n" << std::string(title.size(), '=') << "\n\n";
        os << "Parent: ``" << t.GetParent().GetName() << "``.\n\n";
        os << ".. list-table::\n   :header-rows: 1\n   :widths: 12 10 10 12 28 28\n\n"
           << "   * - Attribute\n     - Type\n     - Default\n     - Allowed\n"
           << "     - Description\n     - Bad values and their errors\n";
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = t.GetAttribute(i);
            const std::string full = t.GetName() + "::" + info.name;
            std::string type = info.checker->GetValueTypeName();
            if (type.rfind("ns3::", 0) == 0)
            {
                type = type.substr(5);
            }
            const std::string u = info.checker->GetUnderlyingTypeInformation();
            const std::size_t sp = u.rfind(' ');
            if ((type == "UintegerValue" || type == "IntegerValue") && sp != std::string::npos)
            {
                type += " (" + u.substr(0, sp) + ")";
            }
            const bool writable = (info.flags & TypeId::ATTR_SET) != 0;
            std::string def = info.initialValue->SerializeToString(info.checker);
            std::string allowed = ScenarioAttributes::AllowedValues(full);
            bool setterChecked = false;
            for (const Probe& p : SetterProbes())
            {
                setterChecked = setterChecked || p.attributes.count(full) > 0;
            }
            std::string bad;
            if (!writable)
            {
                allowed = "read-only";
            }
            else
            {
                const std::string oor = OutOfRange(full, info);
                const std::string mal = Malformed(info);
                if (!oor.empty())
                {
                    bad += Lit(oor) + ": " + Lit(ApplyError({{full, oor}}));
                }
                if (!mal.empty())
                {
                    bad += std::string(bad.empty() ? "" : "; ") + Lit(mal) + ": "
                           + Lit(ApplyError({{full, mal}}));
                }
            }
            os << "   * - ``" << info.name << "``\n     - " << type << "\n     - " << Lit(def)
               << "\n     - "
               << (!setterChecked    ? Lit(allowed)
                   : allowed.empty() ? std::string("checked by the setter (see Checks in "
                                                   "attribute setters)")
                                     : Lit(allowed)
                                           + ", narrowed by the setter (see Checks "
                                             "in attribute setters)")
               << "\n     - " << Rst(info.help) << "\n     - "
               << (bad.empty() ? "\xE2\x80\x94" : bad) << "\n";
        }
        os << "\n";
    }
    os << "Checks in attribute setters\n===========================\n\n"
       << "Values the checker lets through but the attribute's setter refuses: "
          "``SetAttribute`` / ``SetAttributeFailSafe`` throw ``std::invalid_argument``, and a "
          "default set with ``Config::SetDefault`` (or ``ScenarioAttributes``) throws when the "
          "object is created. (These attributes keep a wide checker on purpose: a value a "
          "checker rejects makes ns-3's own ``SetAttribute``, ``ObjectFactory::Set`` and "
          "``Config::SetDefault`` abort the process; only their ``FailSafe`` variants and "
          "``ScenarioAttributes`` report it.)\n\n";
    ProbeTable(os, SetterProbes());
    os << "Checks when a link starts\n=========================\n\n"
       << "Settings each checker accepts but that do not make a valid link, found when the "
          "link starts (``RiflLinkConfig::Validate``, ``DirectLinkConfig::Validate`` and the "
          "devices' conversions), here by starting a link of two nodes (``RiflHelper``, "
          "``DirectLinkHelper``) with them as defaults. Both ends of a link must also agree on "
          "every device attribute; the channel names the first that differs.\n\n";
    ProbeTable(os, StartProbes());
    return os.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string output;
    std::string check;
    CommandLine cmd(__FILE__);
    cmd.AddValue("output", "reST file to write (default rifl-attributes.rst)", output);
    cmd.AddValue("check", "compare with this file instead of writing; exit 1 if it differs", check);
    cmd.Parse(argc, argv);
    if (!check.empty() && !output.empty())
    {
        std::cerr << "rifl-attribute-table: --output and --check exclude each other (--check "
                     "writes nothing)"
                  << std::endl;
        return 1;
    }
    if (output.empty())
    {
        output = "rifl-attributes.rst";
    }
    const std::string text = Generate();
    if (!check.empty())
    {
        std::ifstream f(check);
        std::stringstream ss;
        ss << f.rdbuf();
        if (!f || ss.str() != text)
        {
            std::cerr << check << " is stale (or missing): regenerate it with\n"
                      << "  rifl-attribute-table --output=" << check << std::endl;
            return 1;
        }
        std::cout << check << " is current" << std::endl;
        return 0;
    }
    std::ofstream f(output);
    if (!f)
    {
        std::cerr << "--output=" << output << " cannot be written" << std::endl;
        return 1;
    }
    f << text;
    std::cout << "Wrote " << output << std::endl;
    return 0;
}
