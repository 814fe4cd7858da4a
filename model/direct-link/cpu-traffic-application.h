/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CPU_TRAFFIC_APPLICATION_H
#define CPU_TRAFFIC_APPLICATION_H

#include "direct-link-net-device.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

class DirectLinkInterfaceUnit;
class UniformRandomVariable;
class ExponentialRandomVariable;

/**
 * \ingroup direct-link-ns3
 * \brief What a CpuTrafficApplication measured.
 */
struct CpuTrafficStats
{
    uint64_t requestsIssued{0};   //!< read requests sent (accepted by the DLIU)
    uint64_t requestsRefused{0};  //!< requests the DLIU refused (no route, queue full)
    uint64_t responsesOk{0};      //!< responses with correct content, in time
    uint64_t responsesBad{0};     //!< responses whose content or length was wrong
    uint64_t responsesErrored{0}; //!< responses flagged NetErr/NcErr/truncated/malformed
    uint64_t responsesLate{0};    //!< responses after their request timed out
    uint64_t responsesUnknown{0}; //!< responses to no request of ours
    uint64_t timeouts{0};         //!< requests without a response within Timeout
    uint64_t outstanding{0};      //!< requests still waiting
    uint64_t requestsServed{0};   //!< requests this CPU answered
    uint64_t requestsErrored{0};  //!< requests received with an error flag (not answered)
    double latencyMeanNs{0};      //!< mean request -> response latency (ns)
    double latencyP50Ns{0};       //!< median (ns)
    double latencyP99Ns{0};       //!< 99th percentile (ns)
    double latencyP999Ns{0};      //!< 99.9th percentile (ns)
    double latencyMaxNs{0};       //!< maximum (ns)
    double latencyMinNs{0};       //!< minimum (ns)
    uint64_t responseBytes{0};    //!< bytes of correct responses received
};

/**
 * \ingroup direct-link-ns3
 * \brief Request/response traffic of one CPU over its DLIU.
 *
 * The application sends read requests (RequestBytes, default 8: one
 * micro-packet) to destination CPUs chosen uniformly among the DLIU's
 * reachable CPUs (or the Destinations list), or to HotspotCpu with
 * probability HotspotFraction; open loop (Poisson or constant RequestRate)
 * or closed loop (MaxOutstanding requests in flight). Every application also
 * answers the requests it receives with a response of the size the request
 * asks for (ResponseBytes of the requester, default a 64-byte cache line)
 * whose content is a pattern derived from the requester's CPU, the request
 * number and the requested address, so the requester checks every byte of
 * every response.
 *
 * Request layout: [0..3] request number, [4..5] response length, [6..7]
 * address (random), then pattern bytes. Response layout: [0..3] request
 * number, then Pattern(requester, number, address, i).
 *
 * Latency is from the request's SendMessage to the response's delivery to
 * this CPU; mean, percentiles and maximum are over responses received in time
 * with correct content.
 */
class CpuTrafficApplication : public Application
{
  public:
    /// Traffic mode.
    enum Mode
    {
        OPEN_LOOP,   //!< requests at RequestRate whatever the responses
        CLOSED_LOOP, //!< MaxOutstanding requests in flight
    };

    /**
     * \brief TracedCallback signature of Latency.
     * \param dstCpu the CPU that answered.
     * \param latency the request -> response time.
     */
    typedef void (*LatencyTracedCallback)(uint32_t dstCpu, Time latency);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    CpuTrafficApplication();

    /// \brief Destructor.
    ~CpuTrafficApplication() override;

    /**
     * \brief Restrict the destinations (default: every CPU the DLIU reaches).
     * \param cpus the CPUs.
     */
    void SetDestinations(const std::vector<uint32_t>& cpus);

    /// \return the statistics so far (percentiles computed now).
    CpuTrafficStats GetStats() const;

    /// \return every in-time correct latency, in ns, in arrival order.
    const std::vector<int64_t>& GetLatencies() const;

    /**
     * \brief The response pattern.
     * \param requester the requesting CPU.
     * \param number the request number.
     * \param address the requested address.
     * \param i byte index.
     * \return the byte.
     */
    static uint8_t Pattern(uint32_t requester, uint32_t number, uint32_t address, uint32_t i);

    /**
     * \brief Assign fixed random streams.
     * \param stream the first stream.
     * \return the number of streams used (3).
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// A request waiting for its response.
    struct Outstanding
    {
        Time sent;           //!< when it was sent
        uint32_t dst{0};     //!< destination CPU
        uint32_t address{0}; //!< requested address
        uint32_t length{0};  //!< response length asked for
        EventId timeout;     //!< timeout event
    };

    /// \brief Send one request (if allowed) and schedule the next (open loop).
    void SendRequest();
    /// \brief Open loop: schedule the next request.
    void ScheduleNext();
    /// \return the next destination.
    uint32_t PickDestination();
    /**
     * \brief A message for this CPU.
     * \param m the message.
     */
    void OnMessage(const DirectLinkMessage& m);
    /**
     * \brief A request timed out.
     * \param number its number.
     */
    void OnTimeout(uint32_t number);
    /// \return true if another request may be issued (MaxRequests).
    bool MayIssue() const;

    Ptr<DirectLinkInterfaceUnit> m_dliu;  //!< the node's DLIU
    Mode m_mode{CLOSED_LOOP};             //!< Mode
    double m_rate{1e6};                   //!< RequestRate, requests/s
    bool m_poisson{true};                 //!< Poisson arrivals (else constant)
    uint32_t m_window{1};                 //!< MaxOutstanding
    uint64_t m_maxRequests{0};            //!< MaxRequests, 0 = unlimited
    uint32_t m_requestBytes{8};           //!< RequestBytes
    uint32_t m_responseBytes{64};         //!< ResponseBytes
    int32_t m_hotspot{-1};                //!< HotspotCpu, -1 = none
    double m_hotspotFraction{0.0};        //!< HotspotFraction
    Time m_timeout;                       //!< Timeout
    bool m_generate{true};                //!< GenerateRequests
    std::vector<uint32_t> m_destinations; //!< explicit destinations

    Ptr<UniformRandomVariable> m_destRng;          //!< destination choice
    Ptr<UniformRandomVariable> m_addrRng;          //!< addresses and hotspot draws
    Ptr<ExponentialRandomVariable> m_arrivalRng;   //!< open-loop gaps
    EventId m_next;                                //!< next open-loop request
    bool m_running{false};                         //!< between start and stop
    uint32_t m_nextNumber{1};                      //!< next request number
    std::map<uint32_t, Outstanding> m_outstanding; //!< by request number
    std::map<uint32_t, uint32_t> m_timedOut;       //!< numbers that timed out -> dst
    CpuTrafficStats m_stats;                       //!< counters
    std::vector<int64_t> m_latencies;              //!< ns
    TracedCallback<uint32_t, Time> m_latencyTrace; //!< Latency
};

} // namespace ns3

#endif /* CPU_TRAFFIC_APPLICATION_H */
