/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-link-channel.h"

#include "direct-link-fast-engine.h"
#include "direct-link-net-device.h"
#include "direct-link-reference-engine.h"
#include "direct-link-split-pair.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/independent-bit-error-process.h"
#include "ns3/integer.h"
#include "ns3/link-attribute-accessor.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/rifl-check.h"
#include "ns3/rifl-compat.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectLinkChannel");

NS_OBJECT_ENSURE_REGISTERED(DirectLinkChannel);

TypeId
DirectLinkChannel::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DirectLinkChannel")
              .SetParent<Channel>()
              .SetGroupName("Rifl")
              .AddConstructor<DirectLinkChannel>()
              .AddAttribute("LineRate",
                            "SerDes line rate in bit/s, [1e6, 1e12] (spec 1: 5 Gb/s); one "
                            "micro-packet time is 192 bits at this rate (38.4 ns at 5 Gb/s).",
                            UintegerValue(5000000000ULL),
                            MakeLinkAttributeAccessor<DirectLinkChannel>(
                                MakeUintegerAccessor(&DirectLinkChannel::m_lineRateBps)),
                            MakeUintegerChecker<uint64_t>(1000000ULL, 1000000000000ULL))
              .AddAttribute("CableLength",
                            "Cable length in metres, [0, 10000]; with CableDelay and SerDesDelay "
                            "it sets the one-way delay ceil((length x CableDelay + SerDesDelay) / "
                            "micro-packet time) unless OneWayDelaySlots >= 0.",
                            DoubleValue(1.0),
                            MakeLinkAttributeAccessor<DirectLinkChannel>(
                                MakeDoubleAccessor(&DirectLinkChannel::m_cableLength)),
                            MakeDoubleChecker<double>(0.0, 10000.0))
              .AddAttribute("CableDelay",
                            "Propagation delay per metre of cable (copper or fibre: about 5 ns/m), "
                            "(0, 100 ns].",
                            TimeValue(NanoSeconds(5)),
                            MakeLinkAttributeAccessor<DirectLinkChannel>(
                                MakeTimeAccessor(&DirectLinkChannel::m_cableDelay)),
                            MakeTimeChecker(PicoSeconds(1), NanoSeconds(100)))
              .AddAttribute("SerDesDelay",
                            "Fixed one-way SerDes and pipeline latency added to the cable, "
                            "[0, 10 us]. The defaults (1 m, 5 ns/m, 50 ns) give 2 micro-packet "
                            "times at 5 Gb/s.",
                            TimeValue(NanoSeconds(50)),
                            MakeLinkAttributeAccessor<DirectLinkChannel>(
                                MakeTimeAccessor(&DirectLinkChannel::m_serdesDelay)),
                            MakeTimeChecker(Seconds(0), MicroSeconds(10)))
              .AddAttribute("OneWayDelaySlots",
                            "Explicit one-way delay L in micro-packet times, [0, 1e6]; -1 = "
                            "derived from CableLength, CableDelay and SerDesDelay. A micro-packet "
                            "sent in slot n is received at the end of slot n + L.",
                            IntegerValue(-1),
                            MakeLinkAttributeAccessor<DirectLinkChannel>(
                                MakeIntegerAccessor(&DirectLinkChannel::m_delaySlots)),
                            MakeIntegerChecker<int64_t>(-1, 1000000))
              .AddAttribute("Ber",
                            "Independent bit error rate of both directions, [0, 1); each direction "
                            "gets its own IndependentBitErrorProcess (streams via AssignStreams). "
                            "SetErrorProcess() replaces a direction's process.",
                            DoubleValue(0.0),
                            MakeLinkAttributeAccessor<DirectLinkChannel>(
                                MakeDoubleAccessor(&DirectLinkChannel::m_ber)),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("Engine",
                            "Link engine: Fast (work only at messages, errors and state changes; "
                            "the reference engine until DirectLinkFastEngine exists) or Reference "
                            "(one step per micro-packet time). Both give identical results.",
                            EnumValue(DirectLinkChannel::FAST),
                            MakeLinkAttributeAccessor<DirectLinkChannel>(
                                MakeEnumAccessor(&DirectLinkChannel::m_engineType)),
                            MakeEnumChecker(DirectLinkChannel::FAST, "Fast",
                                            DirectLinkChannel::REFERENCE, "Reference"))
              .AddAttribute("PredictBusy",
                            "Fast engine: predict the next slot with a callback on a busy link "
                            "(DirectLinkFastEngine::SetPredictBusy), so the channel wakes only "
                            "then; false wakes it every busy slot (more events). A link's own "
                            "results are identical either way; in a network, callbacks of "
                            "different links at the same instant may be handled in another "
                            "order (both orders are valid), so results can differ in such ties.",
                            BooleanValue(true),
                            MakeLinkAttributeAccessor<DirectLinkChannel>(
                                MakeBooleanAccessor(&DirectLinkChannel::m_predictBusy)),
                            MakeBooleanChecker())
              .AddAttribute("Split",
                            "Run the two ends as split halves in this process "
                            "(DirectLinkSplitPair: each end's reference engine alone, the two "
                            "exchanging line records, the structure of a link whose ends run on "
                            "different MPI ranks). Results are identical to Engine=Reference; "
                            "needs a one-way delay of at least 1 micro-packet time. Engine and "
                            "PredictBusy are then ignored.",
                            BooleanValue(false),
                            MakeLinkAttributeAccessor<DirectLinkChannel>(
                                MakeBooleanAccessor(&DirectLinkChannel::m_split)),
                            MakeBooleanChecker())
              .AddAttribute("Delay",
                            "Read only: the lookahead of a distributed run on this link, "
                            "floor((L - 1) x 192 / LineRate) with L the one-way delay in "
                            "micro-packet times (DirectLinkChannel::GetDelay(); needs both "
                            "devices attached; a link across MPI ranks needs L >= 2).",
                            TypeId::ATTR_GET, TimeValue(Seconds(0)),
                            MakeTimeAccessor(&DirectLinkChannel::GetDelay), MakeTimeChecker());
    return tid;
}

DirectLinkChannel::DirectLinkChannel()
    : m_cableDelay(NanoSeconds(5))
    , m_serdesDelay(NanoSeconds(50))
{
    NS_LOG_FUNCTION(this);
}

DirectLinkChannel::~DirectLinkChannel()
{
    NS_LOG_FUNCTION(this);
}

void
DirectLinkChannel::DoDispose()
{
    m_wake.Cancel();
    m_heldEvent.Cancel();
    m_engine.reset();
    m_devices = {};
    m_errors = {};
    m_held.clear();
    m_collected.clear();
    m_transport[0].Clear();
    m_transport[1].Clear();
    m_remotePackets.clear();
    m_half = nullptr;
    Channel::DoDispose();
}

void
DirectLinkChannel::Attach(Ptr<DirectLinkNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    RIFL_CHECK_ARG(!device, "DirectLinkChannel::Attach: device must not be null");
    RIFL_CHECK_ARG(m_nDevices >= 2,
                   "DirectLinkChannel::Attach: a direct link has exactly 2 devices");
    m_devices[m_nDevices++] = device;
    if (m_nDevices == 2)
    {
        // Start when the simulation reaches the current time: both devices'
        // attributes are final by then.
        Simulator::ScheduleNow(&DirectLinkChannel::Start, this);
    }
}

std::size_t
DirectLinkChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
DirectLinkChannel::GetDevice(std::size_t i) const
{
    RIFL_CHECK_INDEX(i >= m_nDevices, "DirectLinkChannel::GetDevice: i = "
                                          << i << " but " << m_nDevices << " devices are attached");
    return m_devices[i];
}

uint32_t
DirectLinkChannel::GetSide(Ptr<const DirectLinkNetDevice> device) const
{
    for (uint32_t i = 0; i < m_nDevices; ++i)
    {
        if (PeekPointer(m_devices[i]) == PeekPointer(device))
        {
            return i;
        }
    }
    RIFL_CHECK_ARG(true, "DirectLinkChannel: the device is not attached to this channel");
    return 0;
}

void
DirectLinkChannel::SetErrorProcess(uint32_t sender, Ptr<BitErrorProcess> process)
{
    RIFL_CHECK_ARG(sender > 1, "DirectLinkChannel::SetErrorProcess: sender = "
                                   << sender << " is out of range [0, 1]");
    RIFL_CHECK_ARG(m_engine, "DirectLinkChannel::SetErrorProcess: the link has already started");
    m_errors[sender] = process;
    m_explicitError[sender] = true;
}

Ptr<BitErrorProcess>
DirectLinkChannel::GetErrorProcess(uint32_t sender) const
{
    RIFL_CHECK_ARG(sender > 1, "DirectLinkChannel::GetErrorProcess: sender = "
                                   << sender << " is out of range [0, 1]");
    return m_errors[sender];
}

void
DirectLinkChannel::EnsureProcesses()
{
    RIFL_CHECK_ARG(!(m_ber < 1.0), "DirectLinkChannel: Ber = " << m_ber << " is outside [0, 1)");
    if (m_ber <= 0.0)
    {
        return;
    }
    for (uint32_t s = 0; s < 2; ++s)
    {
        if (!m_explicitError[s] && !m_errors[s])
        {
            Ptr<IndependentBitErrorProcess> p = CreateObject<IndependentBitErrorProcess>();
            p->SetBer(m_ber);
            m_errors[s] = p;
        }
    }
}

int64_t
DirectLinkChannel::AssignStreams(int64_t stream)
{
    EnsureProcesses();
    int64_t used = 0;
    for (uint32_t s = 0; s < 2; ++s)
    {
        if (m_errors[s])
        {
            used += m_errors[s]->AssignStreams(stream + used);
        }
    }
    return used;
}

uint32_t
DirectLinkChannel::GetOneWayDelaySlots() const
{
    if (m_delaySlots >= 0)
    {
        return static_cast<uint32_t>(m_delaySlots);
    }
    DirectLinkConfig c;
    c.lineRateBps = m_lineRateBps;
    c.SetDelayFromCable(m_cableLength, m_cableDelay.GetSeconds() * 1e9,
                        m_serdesDelay.GetSeconds() * 1e9);
    return c.oneWayDelaySlots;
}

uint64_t
DirectLinkChannel::GetLineRateBps() const
{
    return m_lineRateBps;
}

DirectLinkConfig
DirectLinkChannel::BuildConfig() const
{
    RIFL_CHECK_ARG(m_nDevices != 2,
                   "DirectLinkChannel: the link needs 2 devices, " << m_nDevices << " attached");
    const uint32_t delay = GetOneWayDelaySlots();
    DirectLinkConfig a = m_devices[0]->GetLinkConfig(m_lineRateBps, delay);
    const DirectLinkConfig b = m_devices[1]->GetLinkConfig(m_lineRateBps, delay);
    auto same = [](const char* name, uint64_t x, uint64_t y)
    {
        RIFL_CHECK_ARG(x != y,
                       "DirectLinkChannel: the two devices disagree on ns3::DirectLinkNetDevice::"
                           << name << " (" << x << " vs " << y
                           << "); both ends of a direct link must use the same value");
    };
    same("RetryBufferSize", a.retryBufferSize, b.retryBufferSize);
    for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
    {
        const std::string name = "VcBufferSize(s) of VC" + std::to_string(v);
        same(name.c_str(), a.vcBufferSize[v], b.vcBufferSize[v]);
    }
    same("CrcPolynomial", a.crcPoly, b.crcPoly);
    same("AckTime", a.ackTime, b.ackTime);
    same("RetransLimit", a.retransLimit, b.retransLimit);
    same("CrdNullTime", a.crdNullTime, b.crdNullTime);
    same("InitialTime", a.initialTime, b.initialTime);
    same("NakEnabled", a.nakEnabled, b.nakEnabled);
    same("InitAckGuard", a.initAckGuard, b.initAckGuard);
    same("MaxMessageBytes", a.maxMessageBytes, b.maxMessageBytes);
    same("IpVc", m_devices[0]->GetIpVc(), m_devices[1]->GetIpVc());
    same("IpClass", m_devices[0]->GetIpClass(), m_devices[1]->GetIpClass());
    a.Validate();
    return a;
}

void
DirectLinkChannel::Start()
{
    if (m_engine)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    m_config = BuildConfig();
    EnsureProcesses();
    m_started = true;
    m_lookahead = GetDelay();
    if (!IsLocal(0) && !IsLocal(1))
    {
        return; // both ends on another MPI rank: that rank runs the link
    }
    // Across MPI ranks each rank runs only its own end: a split half, its records and the
    // local device's packets crossing as MPI messages.
    m_remote = !(IsLocal(0) && IsLocal(1));
    if (m_remote)
    {
        NS_ABORT_MSG_IF(!m_lookahead.IsStrictlyPositive(),
                        "DirectLinkChannel: the link between nodes "
                            << m_devices[0]->GetNode()->GetId() << " and "
                            << m_devices[1]->GetNode()->GetId()
                            << " spans MPI ranks with a lookahead (Delay) of 0: it needs a "
                               "one-way delay of at least 2 micro-packet times "
                               "(OneWayDelaySlots, CableLength) at a time resolution that "
                               "resolves it");
        m_local = IsLocal(0) ? 0 : 1;
        const uint32_t peer = 1 - m_local;
        m_transport[m_local].SetEnds(m_devices[m_local], m_devices[peer], "DirectLinkChannel");
        // the local half applies the errors of the direction toward it
        auto half = std::make_unique<DirectLinkReferenceEngine>(
            m_config, m_local == 1 ? m_errors[0] : nullptr, m_local == 0 ? m_errors[1] : nullptr);
        half->SetRecordHistory(false);
        half->SetLocalEndpoint(m_local);
        half->SetLineOutCallback(
            [this](const DirectLinkReferenceEngine::LineRecord& r)
            {
                SendRecord(r);
            });
        m_half = half.get();
        m_engine = std::move(half);
    }
    else if (m_split)
    {
        // each half applies the errors of the direction toward it (std::invalid_argument
        // naming OneWayDelaySlots if it is 0)
        m_engine = std::make_unique<DirectLinkSplitPair>(m_config, m_errors[0], m_errors[1]);
    }
    else if (m_engineType == REFERENCE)
    {
        auto ref = std::make_unique<DirectLinkReferenceEngine>(m_config, m_errors[0], m_errors[1]);
        // deliveries and losses are consumed through the callbacks: keep no history
        ref->SetRecordHistory(false);
        m_engine = std::move(ref);
    }
    else
    {
        auto fast = std::make_unique<DirectLinkFastEngine>(m_config, m_errors[0], m_errors[1]);
        fast->SetPredictBusy(m_predictBusy);
        fast->SetRecordHistory(false);
        m_engine = std::move(fast);
    }
    m_engine->SetDeliveryCallback(
        [this](const DirectLinkDeliveredMessage& d)
        {
            Collected c;
            c.kind = 1;
            c.delivery = d;
            m_collected.push_back(std::move(c));
        });
    m_engine->SetLossCallback(
        [this](const DirectLinkLostMessage& l)
        {
            Collected c;
            c.kind = 2;
            c.loss = l;
            m_collected.push_back(std::move(c));
        });
    m_engine->SetEventCallback(
        [this](const DirectLinkEvent& e)
        {
            Collected c;
            c.kind = 0;
            c.event = e;
            m_collected.push_back(std::move(c));
        });
    m_clock.Start(Simulator::Now(), DirectLinkConfig::MICRO_PACKET_BITS, m_lineRateBps);
    for (uint32_t side = 0; side < 2; ++side)
    {
        for (uint32_t v = 0; v < DirectLinkConfig::NUM_VCS; ++v)
        {
            if (m_hold[side][v] && IsLocal(side))
            {
                m_engine->SetDrainInterval(side, v, 0);
            }
        }
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        if (IsLocal(i))
        {
            m_devices[i]->NotifyLinkUp();
        }
    }
    Reschedule();
}

bool
DirectLinkChannel::IsLinkStarted() const
{
    return m_started;
}

const DirectLinkConfig&
DirectLinkChannel::GetConfig() const
{
    return m_config;
}

DirectLinkLinkEngine*
DirectLinkChannel::GetEngine() const
{
    return m_engine.get();
}

Time
DirectLinkChannel::GetSlotStart(uint64_t slot) const
{
    return m_clock.GetSlotStart(slot);
}

uint64_t
DirectLinkChannel::SlotAt(Time t) const
{
    return m_clock.SlotAt(t);
}

void
DirectLinkChannel::Offer(Ptr<DirectLinkNetDevice> device, uint64_t messageId, uint32_t dstCpu,
                         uint32_t srcCpu, uint32_t msgClass, uint32_t vc,
                         const std::vector<uint8_t>& bytes, const DirectLinkMessageFlags& flags)
{
    NS_LOG_FUNCTION(this << device << messageId << dstCpu << srcCpu << msgClass << vc);
    if (!m_engine)
    {
        Start();
    }
    CatchUp();
    HeldOffer h;
    h.side = GetSide(device);
    if (m_remote)
    {
        // the peer's rank delivers it: it gets the packet (tags included) in time, as the
        // first micro-packet needs L slots to cross
        const Ptr<Packet> p = device->PeekMessagePacket(messageId);
        if (p)
        {
            m_transport[h.side].SendPacket(messageId, p, Simulator::Now() + m_lookahead);
        }
    }
    h.id = messageId;
    h.dst = dstCpu;
    h.src = srcCpu;
    h.cls = msgClass;
    h.vc = vc;
    h.flags = flags;
    const Time now = Simulator::Now();
    const uint64_t s = SlotAt(now);
    if (m_held.empty() && GetSlotStart(s) == now && !m_inEngine)
    {
        m_engine->OfferMessage(h.side, h.id, h.dst, h.src, h.cls, h.vc, bytes, flags);
        Reschedule();
        return;
    }
    h.bytes = bytes;
    m_held.push_back(std::move(h));
    if (!RiflEventPending(m_heldEvent))
    {
        const Time at = GetSlotStart(s + 1);
        m_heldEvent = Simulator::Schedule(at - now, &DirectLinkChannel::ReleaseHeld, this);
    }
}

void
DirectLinkChannel::SetDrainHold(Ptr<DirectLinkNetDevice> device, uint32_t vc, bool hold)
{
    NS_LOG_FUNCTION(this << device << vc << hold);
    RIFL_CHECK_INDEX(vc >= DirectLinkConfig::NUM_VCS,
                     "DirectLinkChannel::SetDrainHold: vc = " << vc << " is out of range [0, 3]");
    const uint32_t side = GetSide(device);
    m_hold[side][vc] = hold;
    if (!m_engine)
    {
        return;
    }
    CatchUp();
    m_engine->SetDrainInterval(side, vc, hold ? 0 : m_config.vcDrainInterval[vc]);
    Reschedule();
}

Time
DirectLinkChannel::GetDelay() const
{
    if (m_nDevices < 2)
    {
        return Time(0); // no link yet (an attribute dump reads it)
    }
    const uint32_t delay = GetOneWayDelaySlots();
    if (delay < 2)
    {
        return Time(0);
    }
    SlotClock clock;
    clock.Start(Time(0), DirectLinkConfig::MICRO_PACKET_BITS, m_lineRateBps);
    // floor((a + b) S) >= floor(a S) + floor(b S): no slot's record has less
    return clock.GetSlotStart(delay - 1);
}

bool
DirectLinkChannel::IsLocal(uint32_t side) const
{
    RIFL_CHECK_ARG(side >= m_nDevices, "DirectLinkChannel::IsLocal: side = "
                                           << side << " but " << m_nDevices
                                           << " devices are attached");
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        return m_devices[side]->GetNode()->GetSystemId() == MpiInterface::GetSystemId();
    }
#endif
    return true;
}

void
DirectLinkChannel::SendRecord(const DirectLinkReferenceEngine::LineRecord& r)
{
    // made when slot r.slot ran (at the start of r.slot + 1); the peer runs slot
    // r.slot + L at the start of r.slot + L + 1: arrive at the start of r.slot + L
    const Time at = GetSlotStart(r.slot + m_config.oneWayDelaySlots);
    const Time now = Simulator::Now();
    NS_ABORT_MSG_IF(at < now + m_lookahead, "DirectLinkChannel: the line record of slot "
                                                << r.slot << " made at " << now
                                                << " would arrive less than Delay later");
    m_transport[m_local].SendItem(m_half->EncodeLineRecord(r), at);
}

void
DirectLinkChannel::ReceiveRemote(Ptr<DirectLinkNetDevice> device, Ptr<Packet> message)
{
    const uint32_t rx = GetSide(device);
    NS_ABORT_MSG_IF(!m_remote || rx != m_local || m_half == nullptr,
                    "DirectLinkChannel: a remote message for side " << rx
                                                                    << ", which is not a local "
                                                                       "end of a link across ranks");
    m_transport[rx].Receive(
        message,
        [this](const uint8_t* data, std::size_t size)
        {
            try
            {
                m_half->ReceiveLineRecord(m_half->DecodeLineRecord(data, size));
            }
            catch (const std::exception& e)
            {
                NS_FATAL_ERROR("DirectLinkChannel: bad remote line record: " << e.what());
            }
        },
        [this](uint64_t id, Ptr<Packet> packet)
        {
            m_remotePackets[id] = packet;
        });
}

void
DirectLinkChannel::ReleaseHeld()
{
    CatchUp();
    while (!m_held.empty())
    {
        std::vector<HeldOffer> held;
        held.swap(m_held);
        for (const HeldOffer& h : held)
        {
            m_engine->OfferMessage(h.side, h.id, h.dst, h.src, h.cls, h.vc, h.bytes, h.flags);
        }
    }
    Reschedule();
}

void
DirectLinkChannel::CatchUp()
{
    if (!m_engine || m_inEngine)
    {
        return;
    }
    const uint64_t now = SlotAt(Simulator::Now());
    if (m_engine->GetSlot() < now)
    {
        m_inEngine = true;
        try
        {
            m_engine->AdvanceTo(now);
        }
        catch (const std::exception& e)
        {
            // e.g. a line record of the peer's rank missing when its slot runs
            NS_FATAL_ERROR("DirectLinkChannel: the link's engine stopped: " << e.what());
        }
        m_inEngine = false;
        Dispatch();
    }
}

void
DirectLinkChannel::Wake()
{
    m_wakeSlot = DirectLinkLinkEngine::NEVER;
    CatchUp();
    Reschedule();
}

void
DirectLinkChannel::Dispatch()
{
    if (m_dispatching)
    {
        return; // the outer Dispatch loop picks up what was collected
    }
    m_dispatching = true;
    // Callbacks are handed over only after the engine returned, in the engine's order,
    // so that an upper layer sending in response re-enters the channel safely.
    while (!m_collected.empty())
    {
        std::vector<Collected> items;
        items.swap(m_collected);
        for (const Collected& c : items)
        {
            // Each device runs in its own node's context (ns-3 requires it of a
            // channel handing work to a node), at this same instant and in the
            // engine's order.
            if (c.kind == 0)
            {
                Ptr<DirectLinkNetDevice> dev = m_devices[c.event.side];
                Simulator::ScheduleWithContext(dev->GetNode()->GetId(), Time(0),
                                               &DirectLinkNetDevice::NotifyEvent, dev, c.event);
            }
            else if (c.kind == 1)
            {
                const uint32_t sender = 1 - c.delivery.side;
                // the sender's device forgets it when it learns of the delivery, one line
                // delay later (MESSAGE_DELIVERED); across ranks the packet came with the offer
                Ptr<Packet> original;
                if (m_remote)
                {
                    auto it = m_remotePackets.find(c.delivery.info.messageId);
                    if (it != m_remotePackets.end())
                    {
                        original = it->second;
                        m_remotePackets.erase(it);
                    }
                }
                else
                {
                    original = m_devices[sender]->PeekMessagePacket(c.delivery.info.messageId);
                }
                Ptr<DirectLinkNetDevice> dev = m_devices[c.delivery.side];
                Simulator::ScheduleWithContext(dev->GetNode()->GetId(), Time(0),
                                               &DirectLinkNetDevice::Receive, dev, c.delivery,
                                               original);
            }
            else
            {
                Ptr<DirectLinkNetDevice> dev = m_devices[c.loss.side];
                Simulator::ScheduleWithContext(dev->GetNode()->GetId(), Time(0),
                                               &DirectLinkNetDevice::NotifyLost, dev, c.loss);
            }
        }
    }
    m_dispatching = false;
}

void
DirectLinkChannel::Reschedule()
{
    if (!m_engine)
    {
        return;
    }
    const uint64_t next = m_engine->NextEventSlot();
    if (next == DirectLinkLinkEngine::NEVER)
    {
        m_wake.Cancel();
        m_wakeSlot = DirectLinkLinkEngine::NEVER;
        return;
    }
    if (RiflEventPending(m_wake) && m_wakeSlot == next)
    {
        return;
    }
    m_wake.Cancel();
    m_wakeSlot = next;
    // The engine reports slot `next` once it has run it, i.e. at the start of next + 1.
    const Time at = GetSlotStart(next + 1);
    const Time now = Simulator::Now();
    m_wake = Simulator::Schedule(at > now ? at - now : Time(0), &DirectLinkChannel::Wake, this);
}

} // namespace ns3
