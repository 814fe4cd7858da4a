/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "deterministic-error-process.h"

#include "ns3/log.h"
#include "ns3/string.h"
#include "rifl-check.h"

#include <cctype>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflDeterministicErrorProcess");

NS_OBJECT_ENSURE_REGISTERED(DeterministicErrorProcess);

namespace
{

/**
 * \brief Trim spaces and tabs at both ends.
 * \param s the text.
 * \return the trimmed text.
 */
std::string
Trim(const std::string& s)
{
    size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
    {
        return "";
    }
    size_t e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

/**
 * \brief Parse an unsigned decimal number.
 * \param text the text (trimmed here).
 * \param max the largest value allowed.
 * \param value the result.
 * \return false if the text is not a decimal number in 0..max.
 */
bool
ParseUnsigned(const std::string& text, uint64_t max, uint64_t& value)
{
    std::string t = Trim(text);
    if (t.empty() || t.size() > 20)
    {
        return false;
    }
    uint64_t v = 0;
    for (char c : t)
    {
        if (!std::isdigit(static_cast<unsigned char>(c)))
        {
            return false;
        }
        uint64_t d = static_cast<uint64_t>(c - '0');
        if (v > (max - d) / 10)
        {
            return false;
        }
        v = v * 10 + d;
    }
    value = v;
    return true;
}

} // namespace

TypeId
DeterministicErrorProcess::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DeterministicErrorProcess")
              .SetParent<BitErrorProcess>()
              .SetGroupName("Rifl")
              .AddConstructor<DeterministicErrorProcess>()
              .AddAttribute("Errors",
                            "Errored slots and bits, \"slot:bit,bit,...;slot:bit,...\", e.g. "
                            "\"12:0,5;40:255\" (bits are hardware indices below the frame size; "
                            "entries for one slot are merged). Setting it replaces the list.",
                            StringValue(""),
                            MakeStringAccessor(&DeterministicErrorProcess::SetErrors,
                                               &DeterministicErrorProcess::GetErrors),
                            MakeStringChecker());
    return tid;
}

DeterministicErrorProcess::DeterministicErrorProcess()
{
    NS_LOG_FUNCTION(this);
}

DeterministicErrorProcess::~DeterministicErrorProcess()
{
    NS_LOG_FUNCTION(this);
}

void
DeterministicErrorProcess::AddError(uint64_t slot, const std::vector<uint32_t>& bits)
{
    NS_LOG_FUNCTION(this << slot << bits.size());
    RIFL_CHECK_ARG(slot == FrameErrorEvent::NO_MORE_ERRORS,
                   "DeterministicErrorProcess: slot = " << slot << " is outside 0.."
                                                        << FrameErrorEvent::NO_MORE_ERRORS - 1);
    uint32_t n = GetFrameBits();
    uint32_t limit = (n == 0) ? MAX_FRAME_BITS : n;
    for (uint32_t b : bits)
    {
        RIFL_CHECK_ARG(b >= limit, "DeterministicErrorProcess: bit = "
                                       << b << " at slot " << slot << " is outside 0.." << limit - 1
                                       << " (FrameBits = " << limit << ")");
    }
    if (bits.empty())
    {
        return;
    }
    m_errors[slot].insert(bits.begin(), bits.end());
}

void
DeterministicErrorProcess::SetErrors(const std::string& errors)
{
    NS_LOG_FUNCTION(this << errors);
    std::map<uint64_t, std::set<uint32_t>> parsed;
    uint32_t n = GetFrameBits();
    uint32_t limit = (n == 0) ? MAX_FRAME_BITS : n;
    if (!Trim(errors).empty())
    {
        std::istringstream entries(errors);
        std::string entry;
        while (std::getline(entries, entry, ';'))
        {
            size_t colon = entry.find(':');
            uint64_t slot = 0;
            bool ok = colon != std::string::npos
                      && ParseUnsigned(entry.substr(0, colon), FrameErrorEvent::NO_MORE_ERRORS - 1,
                                       slot);
            RIFL_CHECK_ARG(!ok, "DeterministicErrorProcess: Errors = \""
                                    << errors << "\" is malformed at \"" << entry
                                    << "\": expected slot:bit[,bit...] entries separated by ';'");
            std::string list = entry.substr(colon + 1);
            std::istringstream bitsIn(list);
            std::string bitText;
            size_t count = 0;
            // getline drops a trailing empty field, so count commas too.
            size_t commas = 0;
            for (char c : list)
            {
                commas += (c == ',');
            }
            while (std::getline(bitsIn, bitText, ','))
            {
                uint64_t bit = 0;
                RIFL_CHECK_ARG(!ParseUnsigned(bitText, UINT32_MAX, bit),
                               "DeterministicErrorProcess: Errors = \""
                                   << errors << "\" is malformed at \"" << entry << "\": bit \""
                                   << Trim(bitText) << "\" is not a decimal number");
                RIFL_CHECK_ARG(bit >= limit, "DeterministicErrorProcess: Errors = \""
                                                 << errors << "\": bit = " << bit << " at slot "
                                                 << slot << " is outside 0.." << limit - 1
                                                 << " (FrameBits = " << limit << ")");
                parsed[slot].insert(static_cast<uint32_t>(bit));
                ++count;
            }
            RIFL_CHECK_ARG(count == 0 || count != commas + 1,
                           "DeterministicErrorProcess: Errors = \""
                               << errors << "\" is malformed at \"" << entry
                               << "\": expected slot:bit[,bit...] entries separated by ';'");
        }
        RIFL_CHECK_ARG(Trim(errors).back() == ';',
                       "DeterministicErrorProcess: Errors = \""
                           << errors << "\" is malformed: empty entry after the last ';'");
    }
    m_errors.swap(parsed);
}

std::string
DeterministicErrorProcess::GetErrors() const
{
    std::ostringstream oss;
    bool firstSlot = true;
    for (const auto& [slot, bits] : m_errors)
    {
        oss << (firstSlot ? "" : ";") << slot << ":";
        firstSlot = false;
        bool firstBit = true;
        for (uint32_t b : bits)
        {
            oss << (firstBit ? "" : ",") << b;
            firstBit = false;
        }
    }
    return oss.str();
}

void
DeterministicErrorProcess::Clear()
{
    m_errors.clear();
    Reset();
}

size_t
DeterministicErrorProcess::GetNErrorSlots() const
{
    return m_errors.size();
}

int64_t
DeterministicErrorProcess::AssignStreams(int64_t stream)
{
    return 0;
}

void
DeterministicErrorProcess::Reset()
{
    BitErrorProcess::Reset();
}

double
DeterministicErrorProcess::GetMeanBer() const
{
    uint32_t n = GetFrameBits();
    if (m_errors.empty() || n == 0)
    {
        return 0.0;
    }
    double bits = 0;
    for (const auto& [slot, set] : m_errors)
    {
        bits += static_cast<double>(set.size());
    }
    double span = (static_cast<double>(m_errors.rbegin()->first) + 1.0) * n;
    return bits / span;
}

void
DeterministicErrorProcess::DoGenerateNext(uint64_t minSlot, FrameErrorEvent& event)
{
    auto it = m_errors.lower_bound(minSlot);
    if (it == m_errors.end())
    {
        event.slot = FrameErrorEvent::NO_MORE_ERRORS;
        return;
    }
    event.slot = it->first;
    event.bits.assign(it->second.begin(), it->second.end());
}

void
DeterministicErrorProcess::DoSetFrameBits(uint32_t frameBits)
{
    for (const auto& [slot, bits] : m_errors)
    {
        RIFL_CHECK_ARG(!bits.empty() && *bits.rbegin() >= frameBits,
                       "DeterministicErrorProcess: bit = " << *bits.rbegin() << " at slot " << slot
                                                           << " is outside 0.." << frameBits - 1
                                                           << " (FrameBits = " << frameBits << ")");
    }
}

} // namespace ns3
