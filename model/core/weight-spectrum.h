/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_WEIGHT_SPECTRUM_H
#define RIFL_WEIGHT_SPECTRUM_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-analytics
 * \brief Exact low-weight spectra of linear error checks, by the syndrome method.
 *
 * A linear check over n line bits is described by its syndrome map: s_i is
 * the change in the check result when line bit i alone is flipped. An error
 * pattern e goes undetected iff the XOR of s_i over its set bits is zero.
 * A_w is the number of weight-w undetected patterns.
 *
 * The syndrome map of a CRC is built either from the textbook rule
 * (CrcSyndromes(): s_i = x^i mod g(x) for a systematic n-bit codeword) or,
 * for the module's real codecs, by flipping single bits through the real
 * encoder/decoder (the codec classes provide their maps), so that the spectrum
 * describes exactly the check the simulation applies.
 */
class WeightSpectrum
{
  public:
    /// Largest codeword length CrcSyndromes() accepts, in bits.
    static constexpr uint32_t MAX_LENGTH = 1U << 24;

    /// Largest syndrome map Count() accepts for w = 3 and 4 (pair counts fit in 32 bits).
    static constexpr uint64_t MAX_PAIR_LENGTH = 65536;

    /// Largest number of subsets CountBruteForce() agrees to enumerate.
    static constexpr double MAX_BRUTE_FORCE_SUBSETS = 1e9;

    /**
     * \brief Syndromes of a systematic CRC codeword of \p n bits.
     * \param width the CRC width, 1..32.
     * \param poly the generator, normal notation without x^width, fitting in
     *        \p width bits, x^0 term set.
     * \param n codeword length in bits (message + check), width..MAX_LENGTH.
     * \return s_i = x^i mod g(x), i = 0..n-1 (bit i = coefficient of x^i).
     */
    static std::vector<uint32_t> CrcSyndromes(uint32_t width, uint32_t poly, uint32_t n);

    /**
     * \brief Count the w-subsets of positions whose syndromes XOR to \p target.
     *
     * Exact for w = 0..4. w <= 2 from the number of positions per syndrome
     * value; w = 3 as (sum over pairs {i,j} of #{k : s_k = s_i^s_j^t}
     * - (n-1) m_t) / 3, m_t = #{k : s_k = t}; w = 4 from the number c_v of
     * pairs per XOR value v: with S = sum_v c_v c_(v^t), the unordered pairs of
     * distinct pairs are U = (S - C(n,2)) / 2 for t = 0 and U = S / 2 otherwise,
     * and the count is (U - (n-2) c_t) / 3 (pairs of pairs sharing a position
     * removed; each 4-set has 3 pair partitions). c_v is kept in a counting
     * array when all values fit in 24 bits, else in sorted vectors of pair XORs
     * built in groups of at most 2^24 entries (64 MB), each group costing one
     * O(n^2) pass. w = 3, 4 take time O(n^2) (CRC-32 at n = 12144: seconds).
     *
     * \param syndromes the syndrome of every position; not empty, and at most
     *        MAX_PAIR_LENGTH entries for w >= 3 (std::invalid_argument otherwise).
     * \param w the weight, 0..4 (std::invalid_argument naming "w" otherwise).
     * \param target the XOR value to count (0 = undetected patterns).
     * \return the number of such subsets.
     */
    static uint64_t Count(const std::vector<uint32_t>& syndromes, uint32_t w, uint32_t target = 0);

    /**
     * \brief A_2 .. A_maxWeight of a syndrome map (index = weight; [0] = 1, [1] = A_1).
     * \param syndromes the syndrome of every position (see Count()).
     * \param maxWeight highest weight, 1..4 (std::invalid_argument naming "maxWeight").
     * \return the spectrum A_0..A_maxWeight.
     */
    static std::vector<uint64_t> Spectrum(const std::vector<uint32_t>& syndromes,
                                          uint32_t maxWeight = 4);

    /**
     * \brief P_ud = sum_{w=1..W} A_w p^w (1-p)^(n-w), the probability that a
     *        codeword is hit by a nonzero undetected pattern, truncated at the
     *        spectrum's top weight (the truncation is the next term's order).
     * \param spectrum A_0..A_W (A_0 is ignored); not empty, A_w = 0 for w > n.
     * \param n codeword length in bits.
     * \param ber bit error probability in [0, 1) (std::invalid_argument naming "ber").
     * \return P_ud; each term is exp(log A_w + w log p + (n-w) log1p(-p)), so it
     *         keeps full relative precision at tiny BER (1e-15).
     */
    static double UndetectedProbability(const std::vector<uint64_t>& spectrum, uint32_t n,
                                        double ber);

    /**
     * \brief Brute-force count over all w-subsets (a reference for tests; small n only).
     * \param syndromes the syndrome of every position; not empty.
     * \param w the weight, any, as long as C(n, w) <= MAX_BRUTE_FORCE_SUBSETS.
     * \param target the XOR value to count.
     * \return the number of such subsets.
     */
    static uint64_t CountBruteForce(const std::vector<uint32_t>& syndromes, uint32_t w,
                                    uint32_t target = 0);
};

} // namespace ns3

#endif /* RIFL_WEIGHT_SPECTRUM_H */
