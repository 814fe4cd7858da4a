/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "exact-bit-error-model.h"

#include "independent-bit-error-process.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"
#include "rifl-check.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RiflExactBitErrorModel");

NS_OBJECT_ENSURE_REGISTERED(ExactBitErrorModel);

TypeId
ExactBitErrorModel::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::ExactBitErrorModel")
              .SetParent<ErrorModel>()
              .SetGroupName("Rifl")
              .AddConstructor<ExactBitErrorModel>()
              .AddAttribute(
                  "Ber",
                  "Independent bit error rate in [0, 1); setting it replaces the "
                  "process with an IndependentBitErrorProcess at this rate.",
                  DoubleValue(0.0),
                  MakeDoubleAccessor(&ExactBitErrorModel::SetBer, &ExactBitErrorModel::GetBer),
                  MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("BitErrorProcess",
                            "The bit-error process of the stream (any BitErrorProcess; it is "
                            "used with one bit per slot).",
                            PointerValue(),
                            MakePointerAccessor(&ExactBitErrorModel::SetBitErrorProcess,
                                                &ExactBitErrorModel::GetBitErrorProcess),
                            MakePointerChecker<BitErrorProcess>())
              .AddAttribute("OverheadBytes",
                            "Line framing bytes exposed to errors with every packet (e.g. 8 "
                            "preamble + 14 header + 4 FCS for Ethernet when the packet holds "
                            "only the payload), 0..65535.",
                            UintegerValue(0),
                            MakeUintegerAccessor(&ExactBitErrorModel::m_overheadBytes),
                            MakeUintegerChecker<uint32_t>(0, 65535));
    return tid;
}

ExactBitErrorModel::ExactBitErrorModel()
{
    NS_LOG_FUNCTION(this);
}

ExactBitErrorModel::~ExactBitErrorModel()
{
    NS_LOG_FUNCTION(this);
}

void
ExactBitErrorModel::DoDispose()
{
    m_process = nullptr;
    ErrorModel::DoDispose();
}

void
ExactBitErrorModel::SetBer(double ber)
{
    RIFL_CHECK_ARG(!(ber >= 0.0 && ber < 1.0),
                   "ExactBitErrorModel: Ber = " << ber << " is out of range [0, 1)");
    Ptr<IndependentBitErrorProcess> p = CreateObject<IndependentBitErrorProcess>();
    p->SetBer(ber);
    SetBitErrorProcess(p);
}

double
ExactBitErrorModel::GetBer() const
{
    return m_process ? m_process->GetMeanBer() : 0.0;
}

void
ExactBitErrorModel::SetBitErrorProcess(Ptr<BitErrorProcess> process)
{
    RIFL_CHECK_ARG(!process, "ExactBitErrorModel: BitErrorProcess must not be null");
    m_process = process;
    m_process->SetFrameBits(1);
    m_bitCursor = 0;
}

Ptr<BitErrorProcess>
ExactBitErrorModel::GetBitErrorProcess() const
{
    return m_process;
}

int64_t
ExactBitErrorModel::AssignStreams(int64_t stream)
{
    return m_process ? m_process->AssignStreams(stream) : 0;
}

uint64_t
ExactBitErrorModel::GetPacketsSeen() const
{
    return m_packetsSeen;
}

uint64_t
ExactBitErrorModel::GetPacketsCorrupted() const
{
    return m_packetsCorrupted;
}

uint64_t
ExactBitErrorModel::GetBitErrors() const
{
    return m_bitErrors;
}

bool
ExactBitErrorModel::DoCorrupt(Ptr<Packet> p)
{
    ++m_packetsSeen;
    if (!m_process)
    {
        return false;
    }
    const uint64_t bits = 8 * (static_cast<uint64_t>(p->GetSize()) + m_overheadBytes);
    const uint64_t end = m_bitCursor + bits;
    uint64_t hits = 0;
    while (m_process->Peek().slot < end)
    {
        ++hits;
        m_process->Pop();
    }
    m_bitCursor = end;
    m_bitErrors += hits;
    if (hits > 0)
    {
        ++m_packetsCorrupted;
        NS_LOG_DEBUG("packet of " << p->GetSize() << " B corrupted by " << hits << " bit errors");
        return true;
    }
    return false;
}

void
ExactBitErrorModel::DoReset()
{
    if (m_process)
    {
        m_process->Reset();
    }
    m_bitCursor = 0;
}

} // namespace ns3
