#pragma once
// The one exception the asset reader and writer throw. Its message reads
//   "<source>: <location>: <problem>"
// e.g. "demo.smfem: section 'render.positions': element 7 is NaN" or
//      "demo.smfem: header: file is 1000 bytes but the header says 4096 (truncated?)".
#include <stdexcept>
#include <string>

namespace smfem::asset {

class AssetError : public std::runtime_error {
 public:
  // source: the file name (or the name given to Asset::from_bytes, or "asset writer").
  // location: "header", "section table", "section table entry <i>", "padding", "file",
  //           or "section '<name>'" (use in_section for the last).
  AssetError(std::string source, std::string location, std::string problem);

  // An error about the section called `section`; location becomes "section '<section>'".
  static AssetError in_section(std::string source, std::string section, std::string problem);

  const std::string& source() const { return source_; }
  const std::string& location() const { return location_; }
  // The name of the section at fault, or empty when the error is about something else.
  const std::string& section() const { return section_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string source_;
  std::string location_;
  std::string section_;
  std::string problem_;
};

}  // namespace smfem::asset
