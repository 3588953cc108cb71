// Requests for serving: traces from CSV with errors at file:line, and generated arrivals and
// lengths, reproducible from a seed and with the moments their parameters say.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/config.hpp"
#include "sim/core/params.hpp"
#include "sim/serve/generator.hpp"
#include "sim/core/limits.hpp"
#include "sim/serve/requests.hpp"

using namespace lightcode;
using serve::Request;

namespace {

std::string error_of(const std::string& text) {
  try {
    serve::parse_request_trace(text, "trace.csv");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

struct Moments {
  double mean = 0.0, cv = 0.0;
};

Moments gap_moments(const std::vector<Request>& r) {
  std::vector<double> gaps;
  double previous = 0.0;
  for (const Request& q : r) {
    gaps.push_back(q.arrival.seconds() - previous);
    previous = q.arrival.seconds();
  }
  Moments m;
  for (double g : gaps) m.mean += g;
  m.mean /= static_cast<double>(gaps.size());
  double var = 0.0;
  for (double g : gaps) var += (g - m.mean) * (g - m.mean);
  m.cv = std::sqrt(var / static_cast<double>(gaps.size())) / m.mean;
  return m;
}

}  // namespace

TEST_CASE("a request trace: columns in any order, comments skipped, one request per row") {
  const std::vector<Request> r = serve::parse_request_trace(
      "# a trace\nprompt_tokens, output_tokens, arrival_s\n512, 64, 0\n\n128, 1, 0.25\n2048, 200, "
      "0.25\n",
      "t.csv");
  REQUIRE(r.size() == 3);
  CHECK(r[0].prompt_tokens == 512);
  CHECK(r[0].output_tokens == 64);
  CHECK(r[1].arrival == Time::from_seconds(0.25));
  CHECK(r[2].id == 2);
}

TEST_CASE("a malformed trace row is an error at its file and line naming the column") {
  const std::string head = "arrival_s,prompt_tokens,output_tokens\n";
  CHECK(error_of(head + "0,12,3\n0.5,abc,3\n").find("trace.csv:3") != std::string::npos);
  CHECK(error_of(head + "0,12,3\n0.5,abc,3\n")
            .find("prompt_tokens: expected an integer 1..16777216, got 'abc'") !=
        std::string::npos);
  CHECK(error_of(head + "0,12,0\n").find("output_tokens: expected an integer") !=
        std::string::npos);
  CHECK(error_of(head + "-1,12,3\n").find("arrival_s: expected seconds >= 0, got '-1'") !=
        std::string::npos);
  CHECK(error_of(head + "1,12,3\n0.5,12,3\n").find("trace.csv:3") != std::string::npos);
  CHECK(error_of(head + "1,12,3\n0.5,12,3\n").find("before the previous request's") !=
        std::string::npos);
  CHECK(error_of(head + "1,12\n").find("expected 3 cells") != std::string::npos);
  CHECK(error_of("arrival_s,prompt,output_tokens\n").find("unknown column 'prompt'") !=
        std::string::npos);
  CHECK(error_of("arrival_s,output_tokens\n").find("missing column 'prompt_tokens'") !=
        std::string::npos);
  CHECK(error_of("# nothing\n").find("no header row") != std::string::npos);
}

TEST_CASE("generated requests: the same seed gives the same requests, another seed others") {
  serve::GeneratorSpec s;
  s.rate_per_s = 20.0;
  s.count = 1000;
  s.prompt = std::make_shared<serve::LognormalLengths>(512.0, 1.0, 16, 4096);
  s.output = std::make_shared<serve::UniformLengths>(1, 256);
  s.seed = 7;
  const std::vector<Request> a = serve::generate_requests(s), b = serve::generate_requests(s);
  REQUIRE(a.size() == 1000);
  bool same = true;
  for (size_t i = 0; i < a.size(); ++i) {
    same = same && a[i].arrival == b[i].arrival && a[i].prompt_tokens == b[i].prompt_tokens &&
           a[i].output_tokens == b[i].output_tokens;
  }
  CHECK(same);
  s.seed = 8;
  CHECK(serve::generate_requests(s)[0].arrival != a[0].arrival);
}

TEST_CASE(
    "Poisson and gamma arrivals have the mean gap 1 over rate and their coefficient of variation") {
  serve::GeneratorSpec s;
  s.rate_per_s = 50.0;
  s.count = 100000;
  s.seed = 1;
  s.prompt = s.output = std::make_shared<serve::FixedLengths>(128);
  const Moments poisson = gap_moments(serve::generate_requests(s));
  CHECK(poisson.mean == doctest::Approx(0.02).epsilon(0.01));
  CHECK(poisson.cv == doctest::Approx(1.0).epsilon(0.02));
  s.arrival = std::make_shared<serve::GammaArrivals>(2.0);
  const Moments bursty = gap_moments(serve::generate_requests(s));
  CHECK(bursty.mean == doctest::Approx(0.02).epsilon(0.02));
  CHECK(bursty.cv == doctest::Approx(2.0).epsilon(0.03));
  s.arrival = std::make_shared<serve::GammaArrivals>(0.5);
  CHECK(gap_moments(serve::generate_requests(s)).cv == doctest::Approx(0.5).epsilon(0.03));
}

TEST_CASE(
    "length distributions: fixed, uniform within its range, lognormal around its median and "
    "clipped") {
  serve::GeneratorSpec s;
  s.count = 20001;
  s.prompt = std::make_shared<serve::LognormalLengths>(300.0, 0.8, 8, 4096);
  s.output = std::make_shared<serve::UniformLengths>(10, 30);
  const std::vector<Request> r = serve::generate_requests(s);
  std::vector<int64_t> prompts;
  double output_mean = 0.0;
  for (const Request& q : r) {
    prompts.push_back(q.prompt_tokens);
    CHECK((q.prompt_tokens >= 8 && q.prompt_tokens <= 4096));
    CHECK((q.output_tokens >= 10 && q.output_tokens <= 30));
    output_mean += static_cast<double>(q.output_tokens);
  }
  std::nth_element(prompts.begin(), prompts.begin() + 10000, prompts.end());
  CHECK(static_cast<double>(prompts[10000]) == doctest::Approx(300.0).epsilon(0.03));
  CHECK(output_mean / static_cast<double>(r.size()) == doctest::Approx(20.0).epsilon(0.01));
  s.prompt = std::make_shared<serve::FixedLengths>(777);
  CHECK(serve::generate_requests(s)[5].prompt_tokens == 777);
}

TEST_CASE("unknown processes and distributions and bad parameters are clear errors at their keys") {
  const auto error_of_yaml = [](const std::string& yaml) -> std::string {
    ConfigUsage usage;
    try {
      serve::parse_generator(ConfigNode::parse(yaml, "requests.yaml"), usage);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  const std::string lengths = "prompt: {distribution: fixed, value: 8}\noutput: {distribution: fixed, value: 8}\n";
  std::string msg = error_of_yaml("count: 4\narrival: uniform\n" + lengths);
  CHECK(msg.find("requests.yaml:2:") == 0);
  CHECK(msg.find("unknown arrival process 'uniform' (known: poisson, gamma)") != std::string::npos);
  msg = error_of_yaml("count: 4\nprompt: {distribution: uniform, min: 10, max: 5}\noutput: {distribution: fixed, value: 8}\n");
  CHECK(msg.find("max 5 is below min 10") != std::string::npos);
  msg = error_of_yaml("count: 4\nprompt: {distribution: zipf}\noutput: {distribution: fixed, value: 8}\n");
  CHECK(msg.find("unknown length distribution 'zipf' (known: fixed, uniform, lognormal)") != std::string::npos);
  // A key the chosen process does not own is unknown only when no process owns it.
  msg = error_of_yaml("count: 4\ncv: 2\nshape: 3\n" + lengths);
  CHECK(msg.find("unknown key 'shape'") != std::string::npos);
  msg = error_of_yaml("count: 4\narrival: gamma\n" + lengths);
  CHECK(msg.find("missing key 'cv'") != std::string::npos);
  serve::GeneratorSpec s;
  s.prompt = s.output = std::make_shared<serve::FixedLengths>(8);
  s.rate_per_s = 0.0;
  CHECK_THROWS_AS(serve::generate_requests(s), Error);
}

TEST_CASE("a trace past the request limit is refused at its first extra row, before it is parsed") {
  // Rows are counted before any is read: these are not even valid rows.
  const auto rows = static_cast<size_t>(limits::kRequests.value);
  std::string text = "arrival_s,prompt_tokens,output_tokens\n";
  text.reserve(text.size() + 2 * (rows + 1));
  for (size_t i = 0; i <= rows; ++i) text += "x\n";
  const std::string e = error_of(text);
  CHECK(e == "trace.csv:" + std::to_string(rows + 2) + ": more than 10000000 requests (requests); split the trace");
}

TEST_CASE("a trace with a header and no rows is an error saying it has no requests") {
  CHECK(error_of("# only a header\narrival_s,prompt_tokens,output_tokens\n\n# nothing else\n")
            .find("trace.csv:2: the trace has no requests") != std::string::npos);
}

TEST_CASE("a trace arrival beyond a Time's range is an error at its row and column") {
  const std::string e = error_of("prompt_tokens,arrival_s,output_tokens\n4,0,2\n4, 1e7,2\n");
  CHECK(e == "trace.csv:3:4: arrival_s: '1e7': a duration of 1e+07 s exceeds the representable 106 days at 1 ps");
  // 9,000,000 s is within it.
  CHECK(serve::parse_request_trace("arrival_s,prompt_tokens,output_tokens\n9e6,4,2\n", "t.csv")[0].arrival ==
        Time::from_seconds(9e6));
}

TEST_CASE("trace numbers are decimal, and a huge cell is quoted as an excerpt") {
  const std::string head = "arrival_s,prompt_tokens,output_tokens\n";
  CHECK(error_of(head + "0x10,4,2\n").find("trace.csv:2:1: arrival_s: expected seconds >= 0, got '0x10'") !=
        std::string::npos);
  CHECK(error_of(head + "inf,4,2\n").find("got 'inf'") != std::string::npos);
  CHECK(error_of(head + "0,0x10,2\n").find("trace.csv:2:3: prompt_tokens: expected an integer") != std::string::npos);
  const std::string huge(5 << 20, '7');
  for (const std::string& row : {huge + ",4,2", "0," + huge + ",2", "0,4,1" + huge, "0,4,2," + huge}) {
    const std::string e = error_of(head + row + "\n");
    CHECK_FALSE(e.empty());
    CHECK(e.size() < 200);
  }
  CHECK(error_of(huge + ",prompt_tokens,output_tokens\n0,4,2\n").size() < 200);
}

TEST_CASE("gamma arrivals end for any cv above 0 up to 100 with the gaps mean and cv, and beyond 100 are a clear error") {
  serve::GeneratorSpec s;
  s.prompt = s.output = std::make_shared<serve::FixedLengths>(8);
  s.rate_per_s = 50.0;
  s.count = 20000;
  s.seed = 3;
  // Tiny cv: the shape 1 / cv^2 overflows a double below 7.5e-155 (this looped forever).
  for (const double cv : {1e-155, 1e-300, 5e-324}) {
    s.arrival = std::make_shared<serve::GammaArrivals>(cv);
    const std::vector<Request> r = serve::generate_requests(s);
    int64_t widest = 0;  // deterministic gaps of 1 / rate, to the rounding of the arrival sum
    for (size_t i = 1; i < r.size(); ++i) {
      widest = std::max(widest, std::abs((r[i].arrival - r[i - 1].arrival).count_ps() - 20'000'000'000));
    }
    CHECK(widest <= 1);
  }
  // Either side of the switch to the narrow form (cv 1e-4), the moments are those asked for.
  for (const double cv : {2e-5, 9.9e-5, 1.01e-4, 1e-3}) {
    s.arrival = std::make_shared<serve::GammaArrivals>(cv);
    const Moments m = gap_moments(serve::generate_requests(s));
    CHECK(m.mean == doctest::Approx(0.02).epsilon(1e-4));
    CHECK(m.cv == doctest::Approx(cv).epsilon(0.03));
  }
  s.arrival = std::make_shared<serve::GammaArrivals>(100.0);
  s.count = 1000;
  for (const Request& q : serve::generate_requests(s)) CHECK(q.arrival >= Time::zero());
  for (const double cv : {100.5, 1e200, 1.7e308, 0.0}) {
    CHECK_THROWS_WITH_AS(serve::GammaArrivals{cv}, doctest::Contains("gamma arrivals: cv must be above 0 and at most 100"),
                         Error);
  }
  // Read from a scenario, the bound is the table's, at the key.
  ConfigUsage usage;
  CHECK_THROWS_WITH_AS(serve::parse_generator(ConfigNode::parse("count: 4\narrival: gamma\ncv: 1e200\n"
                                                                "prompt: {distribution: fixed, value: 8}\n"
                                                                "output: {distribution: fixed, value: 8}\n",
                                                                "requests.yaml"),
                                               usage),
                       doctest::Contains("requests.yaml:3:"), Error);
}
