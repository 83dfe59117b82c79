// The distributed sort over MPI, run by CTest under mpirun with 2, 3 and 4 ranks (oversubscribed
// on a small machine; PoCL in CI). Every rank builds the same global input from one seed, gives
// its slice (counts differ between ranks, and the last rank may start empty), and checks that its
// output is exactly its range of the stable host reference. Only non-fatal checks: a rank that
// stopped early would leave the others waiting in a collective call.
#include <gtest/gtest.h>
#include <mpi.h>

#include <numeric>

#include "gpusort/dist_mpi.hpp"
#include "dist/dist_steps.hpp"
#include "gpusort/dist_nccl.hpp"
#include "gpusort/plan.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

int rank_count() {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}
int my_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// The same seed on every rank (rank 0's).
std::uint64_t shared_seed() {
  std::uint64_t seed = fresh_seed();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return seed;
}

// Rank r's element count: unequal shares; `last_empty` gives the last rank nothing.
std::vector<std::size_t> shares(std::size_t n, bool last_empty) {
  const int p = rank_count();
  std::vector<std::size_t> c(p, 0);
  const int givers = last_empty && p > 1 ? p - 1 : p;
  std::size_t weights = 0;
  for (int r = 0; r < givers; ++r) weights += std::size_t(r + 1);
  std::size_t given = 0;
  for (int r = 0; r < givers; ++r) {
    c[r] = r + 1 == givers ? n - given : n * std::size_t(r + 1) / weights;
    given += c[r];
  }
  return c;
}

template <class K, class V>
void check(std::size_t n, dist d, order o, bool stable, bool last_empty, bool pairs, bool on_device = false,
           bool supplied_temp = false) {
  const int me = my_rank();
  const std::uint64_t seed = shared_seed();
  const std::vector<K> all = make_keys<K>(n, d, seed);
  const std::vector<std::size_t> count = shares(n, last_empty);
  const std::size_t first = std::accumulate(count.begin(), count.begin() + me, std::size_t(0));
  std::vector<K> keys(all.begin() + first, all.begin() + first + count[me]);
  std::vector<V> values(count[me]);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = V(first + i);

  auto comm = gpusort::dist::mpi_communicator(MPI_COMM_WORLD);
  const SortOptions opt{.order = o, .stable = stable};
  gpusort::dist::DistReport rep;
  if (on_device) {
    // The device form: the slice in device buffers, exchanged through host memory over MPI.
    DeviceBuffer dkeys(test_context(), std::max<std::size_t>(1, keys.size() * sizeof(K)));
    DeviceBuffer dvalues(test_context(), std::max<std::size_t>(1, values.size() * sizeof(V)));
    if (!keys.empty()) dkeys.upload(keys.data(), keys.size() * sizeof(K));
    if (!values.empty()) dvalues.upload(values.data(), values.size() * sizeof(V));
    auto exchange = gpusort::dist::staged_exchange(*comm);
    if (supplied_temp) {
      const std::size_t bytes = gpusort::dist::sort_device_temporary_bytes(
          test_context(), key_type_of<K>::value, keys.size(), pairs ? sizeof(V) : 0, rank_count(), opt);
      DeviceBuffer temp(test_context(), bytes);
      rep = gpusort::dist::sort_device(test_context(), *comm, *exchange, key_type_of<K>::value, dkeys, keys.size(),
                                       pairs ? &dvalues : nullptr, pairs ? sizeof(V) : 0, opt, temp);
    } else {
      rep = gpusort::dist::sort_device(test_context(), *comm, *exchange, key_type_of<K>::value, dkeys, keys.size(),
                                       pairs ? &dvalues : nullptr, pairs ? sizeof(V) : 0, opt);
    }
    if (!keys.empty()) dkeys.download(keys.data(), keys.size() * sizeof(K));
    if (pairs && !values.empty()) dvalues.download(values.data(), values.size() * sizeof(V));
  } else {
    rep = pairs ? gpusort::dist::sort_pairs(test_context(), *comm, std::span(keys), std::span(values), opt)
                : gpusort::dist::sort(test_context(), *comm, std::span(keys), opt);
  }
  EXPECT_EQ(rep.total, n);
  ASSERT_EQ(keys.size(), count[me]) << "a rank's share changed";

  // Reference: the stable sort of the whole input, as (key, original index).
  std::vector<std::size_t> ref(n);
  std::iota(ref.begin(), ref.end(), std::size_t(0));
  key_less<K> less{o};
  std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) { return less(all[a], all[b]); });
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::size_t g = ref[first + i];
    const bool same = stable ? same_bits(keys[i], all[g]) : !less(keys[i], all[g]) && !less(all[g], keys[i]);
    if (!same) ++wrong;
    else if (pairs && stable && values[i] != V(g)) ++wrong;
    else if (pairs && !same_bits(all[std::size_t(values[i])], keys[i])) ++wrong;  // the pair stayed together
  }
  EXPECT_EQ(wrong, 0u) << "rank " << me << " of " << rank_count() << ": " << wrong << " of " << keys.size()
                       << " elements differ from the reference (n=" << n << " dist=" << dist_name(d)
                       << " seed=" << seed << (o == order::descending ? " descending" : "") << ")";
}

TEST(DistSort, KeysUnequalShares) {
  check<std::uint32_t, std::uint32_t>(200003, dist::uniform, order::ascending, false, false, false);
  check<float, std::uint32_t>(50001, dist::specials, order::descending, false, false, false);
  check<std::int64_t, std::uint32_t>(30011, dist::entropy, order::ascending, false, true, false);
}

TEST(DistSort, StablePairsWithHeavyDuplicates) {
  for (dist d : {dist::all_equal, dist::few_unique})
    for (order o : {order::ascending, order::descending}) {
      check<std::uint16_t, std::uint32_t>(100001, d, o, true, false, true);
      check<std::uint8_t, std::uint64_t>(40009, d, o, true, true, true);
    }
}

TEST(DistSort, TinyAndEmpty) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(17)})
    check<std::uint32_t, std::uint32_t>(n, dist::uniform, order::ascending, true, true, true);
}

TEST(DistSortDevice, KeysAndStablePairs) {
  check<std::uint32_t, std::uint32_t>(100003, dist::uniform, order::ascending, false, false, false, true);
  check<double, std::uint32_t>(30001, dist::specials, order::descending, true, true, true, true);
  for (dist d : {dist::all_equal, dist::few_unique})
    check<std::int16_t, std::uint64_t>(50021, d, order::ascending, true, false, true, true);
  check<std::uint8_t, std::uint32_t>(7, dist::uniform, order::descending, true, true, true, true);
}

TEST(DistSortDevice, SuppliedTemporaryStorage) {
  check<std::uint32_t, std::uint32_t>(100003, dist::uniform, order::ascending, true, false, true, true, true);
  check<float, std::uint32_t>(20011, dist::specials, order::descending, false, true, false, true, true);
}

// What `gpusort plan --ranks P` prints (gpusort::plan of the distributed request) is what every rank
// runs: the plan's algorithm sorts each rank's share (and, for host data, what it receives). The
// algorithm 'rank' takes at most 65536 keys: the shares of 70000 keys fit it though the whole does
// not, so the plan accepts the request, and so does the sort, in both forms.
TEST(DistSort, EveryRankRunsThePlanOfTheRequest) {
  if (rank_count() < 2) GTEST_SKIP() << "needs two ranks";
  const std::size_t n = 70000;
  const std::vector<std::size_t> count = shares(n, false);
  const std::size_t first = std::accumulate(count.begin(), count.begin() + my_rank(), std::size_t(0));
  const std::vector<std::uint32_t> all = make_keys<std::uint32_t>(n, dist::uniform, shared_seed());
  std::vector<std::uint32_t> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  const SortOptions opt{.algorithm = "rank"};
  auto comm = gpusort::dist::mpi_communicator(MPI_COMM_WORLD);
  for (const data_location where : {data_location::host, data_location::device}) {
    const SortPlan planned = plan(test_context(), {.type = key_type::u32, .n = n, .where = where,
                                                   .ranks = std::uint32_t(rank_count()), .options = opt});
    EXPECT_EQ(planned.algorithm, "rank") << planned.text();
    std::vector<std::uint32_t> keys(all.begin() + first, all.begin() + first + count[my_rank()]);
    gpusort::dist::DistReport rep;
    if (where == data_location::host) {
      EXPECT_NO_THROW(rep = gpusort::dist::sort(test_context(), *comm, std::span(keys), opt));
      EXPECT_EQ(rep.final_sort.algorithm, planned.algorithm);
    } else {
      auto exchange = gpusort::dist::staged_exchange(*comm);
      DeviceBuffer dkeys(test_context(), keys.size() * 4);
      dkeys.upload(keys.data(), keys.size() * 4);
      EXPECT_NO_THROW(rep = gpusort::dist::sort_device(test_context(), *comm, *exchange, key_type::u32, dkeys,
                                                       keys.size(), nullptr, 0, opt));
      dkeys.download(keys.data(), keys.size() * 4);
    }
    EXPECT_EQ(rep.local_sort.algorithm, planned.algorithm) << to_string(where);
    EXPECT_TRUE(std::equal(keys.begin(), keys.end(), sorted.begin() + first))
        << "rank " << my_rank() << " holds another range than the sorted whole's (" << to_string(where) << ")";
  }
}

// Too little temporary storage on one rank: every rank throws before anything moves, and every
// rank's keys are as they were.
TEST(DistSortDevice, TooLittleTemporaryStorageIsAnErrorOnEveryRank) {
  auto comm = gpusort::dist::mpi_communicator(MPI_COMM_WORLD);
  auto exchange = gpusort::dist::staged_exchange(*comm);
  const std::size_t n = 5000;
  std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(n, dist::uniform, fresh_seed());
  DeviceBuffer dkeys(test_context(), n * 4);
  dkeys.upload(keys.data(), n * 4);
  const std::size_t need =
      gpusort::dist::sort_device_temporary_bytes(test_context(), key_type::u32, n, 0, rank_count());
  DeviceBuffer temp(test_context(), my_rank() == 0 ? need - 1 : need);
  EXPECT_THROW(gpusort::dist::sort_device(test_context(), *comm, *exchange, key_type::u32, dkeys, n, nullptr, 0, {},
                                          temp),
               Error);
  std::vector<std::uint32_t> after(n);
  dkeys.download(after.data(), n * 4);
  EXPECT_EQ(after, keys) << "rank " << my_rank() << "'s keys changed";
}

// The exchange plan with aligned copies (dist_steps.hpp), for every rank of a made-up cut table:
// copies start at multiples of the alignment on both sides, each receiver expects what its sender
// sends, the runs hold exactly the rank's range, and the lead-ins and gaps stay small.
TEST(DistExchangePlan, AlignedCopiesMatchOnBothSides) {
  const int p = 4;
  const std::uint64_t align = 8;
  std::vector<std::uint64_t> counts(p, 0), cut;
  std::uint64_t seed = fresh_seed();
  for (int r = 0; r < p; ++r) {  // rank r's sorted array cut into p slices of random sizes (some empty)
    std::uint64_t at = 0;
    cut.push_back(0);
    for (int k = 0; k < p; ++k) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      const std::uint64_t len = (seed >> 33) % 4 == 0 ? 0 : (seed >> 40) % 1000;
      at += len;
      counts[k] += len;
      cut.push_back(at);
    }
  }
  std::vector<gpusort::dist::detail::ExchangePlan> plans;
  for (int me = 0; me < p; ++me) plans.push_back(gpusort::dist::detail::plan_exchange(cut, counts, me, p, align));
  for (int me = 0; me < p; ++me) {
    const auto& plan = plans[me];
    std::uint64_t held = 0, end = 0;
    for (int k = 0; k < p; ++k) {
      EXPECT_EQ(plan.recv_count[k], plans[k].send_count[me]) << "rank " << me << " from " << k;
      if (plan.recv_count[k]) {
        EXPECT_EQ(plan.recv_offset[k] % align, 0u);
        EXPECT_EQ(plans[k].send_offset[me] % align, 0u);
      }
      EXPECT_GE(plan.recv_offset[k], end) << "copies overlap";
      EXPECT_EQ(plan.run_start[k] - plan.recv_offset[k], cut[k * (p + 1) + me] - plans[k].send_offset[me]);
      EXPECT_LT(plan.run_start[k] - plan.recv_offset[k], align);
      EXPECT_EQ(plan.run_count[k], cut[k * (p + 1) + me + 1] - cut[k * (p + 1) + me]);
      held += plan.run_count[k];
      end = plan.recv_offset[k] + plan.recv_count[k];
    }
    EXPECT_EQ(held, counts[me]);
    EXPECT_LE(plan.recv_extent, counts[me] + 2 * align * p);
  }
}

// Off CUDA (PoCL in CI) or without libnccl, the NCCL exchange is a clear error on every rank.
TEST(DistSortDevice, NcclExchangeNeedsCudaAndNccl) {
  auto comm = gpusort::dist::mpi_communicator(MPI_COMM_WORLD);
  if (test_context().device().backend == "cuda") GTEST_SKIP() << "runs where NCCL would be tried for real";
  try {
    gpusort::dist::nccl_exchange(test_context(), *comm);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::unsupported) << e.what();
  }
}

TEST(DistSort, MismatchedTypesAreAnErrorOnEveryRank) {
  auto comm = gpusort::dist::mpi_communicator(MPI_COMM_WORLD);
  std::vector<std::uint32_t> a(100, 1);
  std::vector<std::uint64_t> b(100, 1);
  if (rank_count() < 2) GTEST_SKIP() << "needs two ranks";
  if (my_rank() == 0)
    EXPECT_THROW(gpusort::dist::sort(test_context(), *comm, std::span(a)), Error);
  else
    EXPECT_THROW(gpusort::dist::sort(test_context(), *comm, std::span(b)), Error);
}

// A bad request on one rank only, while another rank has nothing to sort: every rank throws, none
// waits forever in a collective call (ctest's timeout would catch a hang).
TEST(DistSort, AnErrorOnOneRankReachesEveryRank) {
  if (rank_count() < 2) GTEST_SKIP() << "needs two ranks";
  auto comm = gpusort::dist::mpi_communicator(MPI_COMM_WORLD);
  std::vector<std::uint32_t> keys(my_rank() == 0 ? 0 : 1000, 7);
  SortOptions opt;
  if (my_rank() == 1) opt.algorithm = "no-such-algorithm";
  EXPECT_THROW(gpusort::dist::sort(test_context(), *comm, std::span(keys), opt), Error);
  // The communicator still works afterwards.
  std::vector<std::uint32_t> fine(100, 3);
  EXPECT_NO_THROW(gpusort::dist::sort(test_context(), *comm, std::span(fine)));
}

}  // namespace
}  // namespace gpusort::test

// MPI around GoogleTest: only rank 0 prints; every rank exits with the worst result of all.
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (gpusort::test::my_rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int result = RUN_ALL_TESTS();
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
