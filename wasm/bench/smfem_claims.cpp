// The native twin of `npx smfem claims` (wasm/js/claims.js): evaluates one baked scene with
// claims/scene_claims.hpp and prints its JSON on one line.
//
//   smfem-claims <asset.smfem> [--name NAME] [--quick] [--threads T]
//   smfem-claims <asset.smfem> --convergence REGION [--ratios a,b,c] [--load-time S]
//                [--iterations K] [--threads T]      (defaults: claims::ConvergenceOptions)
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "smfem/asset/asset.hpp"
#include "smfem/claims/scene_claims.hpp"
#include "smfem/sim/model/reduced_model.hpp"

namespace {

using namespace smfem;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "smfem-claims: " << problem << "\n"
            << "usage: smfem-claims <asset.smfem> [--name NAME] [--quick] [--threads T]\n"
            << "       smfem-claims <asset.smfem> --convergence REGION [--ratios a,b,c] "
               "[--load-time S] [--iterations K] [--threads T]\n";
  std::exit(2);
}

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> values;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) values.push_back(std::stod(item));
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string asset_path, name;
  claims::SceneOptions options;
  claims::ConvergenceOptions convergence;
  try {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const auto next = [&]() -> const std::string& {
        if (i + 1 >= args.size()) usage(args[i] + " needs a value");
        return args[++i];
      };
      if (args[i] == "--name") {
        name = next();
      } else if (args[i] == "--quick") {
        options.quick = true;
      } else if (args[i] == "--threads") {
        options.threads = convergence.threads = std::stoi(next());
      } else if (args[i] == "--convergence") {
        convergence.region = next();
      } else if (args[i] == "--ratios") {
        convergence.ratios = parse_list(next());
      } else if (args[i] == "--load-time") {
        convergence.load_time = std::stod(next());
      } else if (args[i] == "--iterations") {
        convergence.iterations = std::stoi(next());
      } else if (!args[i].empty() && args[i][0] != '-' && asset_path.empty()) {
        asset_path = args[i];
      } else {
        usage("unknown argument " + args[i]);
      }
    }
    if (asset_path.empty()) usage("give an asset");
    const sim::ReducedModel model = sim::load_reduced_model(asset::Asset::from_file(asset_path));
    const nlohmann::json out =
        convergence.region.empty()
            ? claims::evaluate_scene(name.empty() ? model.source : name, model, options)
            : claims::convergence_study(model, convergence);
    std::cout << out.dump() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "smfem-claims: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
