/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_INDEPENDENT_BIT_ERROR_PROCESS_H
#define RIFL_INDEPENDENT_BIT_ERROR_PROCESS_H

#include "bit-error-process.h"

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup rifl-core
 * \brief Exact independent (i.i.d.) bit errors at a bit error rate p.
 *
 * Geometric skip sampling: frames to the next hit ~ Geometric(FER) with
 * FER = 1 - (1-p)^n (the skip is floor(log U / (n log1p(-p))), U in (0,1] with
 * 53-bit resolution), then the first errored bit of the frame by inversion of
 * its distribution conditioned on >= 1 error, then further errored bits of the
 * same frame by bit-level geometric skips floor(log U / log1p(-p)). This is
 * exactly the i.i.d. bit process (clean bits before the next error ~
 * Geometric(p)), costs nothing per clean frame and stays exact at tiny rates
 * (1e-15 and below). Slots are generated up to MAX_SLOT (2^62); a gap beyond
 * it ends the stream. BER 0 never produces an event. Uses one RNG stream.
 */
class IndependentBitErrorProcess : public BitErrorProcess
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief Constructor.
    IndependentBitErrorProcess();
    /// \brief Destructor.
    ~IndependentBitErrorProcess() override;

    /**
     * \brief Set the bit error rate; takes effect for events not generated yet.
     * \param ber the BER, in [0,1) (std::invalid_argument naming "Ber" otherwise).
     */
    void SetBer(double ber);

    /// \return the bit error rate.
    double GetBer() const;

    /// \return the frame error rate 1-(1-p)^n for the current frame size (0 if unset).
    double GetFer() const;

    int64_t AssignStreams(int64_t stream) override;
    void Reset() override;
    double GetMeanBer() const override;

  protected:
    void DoDispose() override;
    void DoGenerateNext(uint64_t minSlot, FrameErrorEvent& event) override;

  private:
    double m_ber{0};                  //!< bit error rate
    Ptr<UniformRandomVariable> m_rng; //!< the single random stream
    uint64_t m_cursor{0};             //!< first slot not yet drawn
};

} // namespace ns3

#endif /* RIFL_INDEPENDENT_BIT_ERROR_PROCESS_H */
