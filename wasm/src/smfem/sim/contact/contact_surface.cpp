#include "smfem/sim/contact/contact_surface.hpp"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include <Eigen/Geometry>

#include "smfem/sim/model/detail/asset_arrays.hpp"

namespace smfem::contact {
namespace {

using asset::DType;
using asset::kAnyExtent;
using RowMatrixXf = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Vertex ids as ints: an id beyond int's range is out of range anyway (check_reduced_model).
template <class Matrix>
void read_ids(const asset::Asset& asset, const char* name, Matrix& out) {
  const std::vector<std::uint32_t> ids = asset.array<std::uint32_t>(name);
  for (Eigen::Index i = 0; i < out.size(); ++i) {
    const std::uint32_t id = ids[static_cast<std::size_t>(i)];
    out.data()[i] = id > 0x7fffffffU ? -1 : static_cast<int>(id);
  }
}

}  // namespace

ContactSurface read_contact_surface(const asset::Asset& asset, Eigen::Index m) {
  ContactSurface surface;
  const auto& info = asset.expect("contact.positions", DType::f64, {kAnyExtent, 3});
  const auto ns = static_cast<Eigen::Index>(info.shape[0]);
  surface.positions = sim::detail::read_f64_matrix(asset, "contact.positions", ns, 3);
  asset.expect("contact.weights", DType::f32, {ns, m});
  const std::vector<float> weights = asset.array<float>("contact.weights");
  surface.weights = Eigen::Map<const RowMatrixXf>(weights.data(), ns, m).cast<double>();
  const auto nt = static_cast<Eigen::Index>(
      asset.expect("contact.triangles", DType::u32, {kAnyExtent, 3}).shape[0]);
  surface.triangles.resize(nt, 3);
  read_ids(asset, "contact.triangles", surface.triangles);
  const auto n =
      static_cast<Eigen::Index>(asset.expect("contact.samples", DType::u32, {kAnyExtent}).shape[0]);
  surface.samples.resize(n);
  read_ids(asset, "contact.samples", surface.samples);
  surface.areas = sim::detail::read_f64_vector(asset, "contact.areas", n);
  return surface;
}

void add_contact_surface(asset::AssetWriter& writer, const ContactSurface& surface) {
  if (surface.empty()) return;
  if (!surface.part_first_mode.empty()) {
    throw std::invalid_argument("contact: a surface of several bodies is not written to an asset");
  }
  const auto ns = static_cast<std::uint64_t>(surface.positions.rows());
  writer.add("contact.positions",
             std::span<const double>(surface.positions.data(), surface.positions.size()), {ns, 3});
  const RowMatrixXf weights = surface.weights.cast<float>();
  writer.add("contact.weights", std::span<const float>(weights.data(), weights.size()),
             {ns, static_cast<std::uint64_t>(weights.cols())});
  const auto ids = [](const auto& matrix) {
    std::vector<std::uint32_t> out(static_cast<std::size_t>(matrix.size()));
    for (Eigen::Index i = 0; i < matrix.size(); ++i) {
      out[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(matrix.data()[i]);
    }
    return out;
  };
  writer.add("contact.triangles", ids(surface.triangles),
             {static_cast<std::uint64_t>(surface.triangles.rows()), 3});
  const auto n = static_cast<std::uint64_t>(surface.samples.size());
  writer.add("contact.samples", ids(surface.samples), {n});
  writer.add("contact.areas", std::span<const double>(surface.areas.data(), surface.areas.size()),
             {n});
}

void surface_basis_row(const ContactSurface& surface, Eigen::Index v, int first_mode, int modes,
                       double* out) {
  const Eigen::Vector4d homogeneous = surface.positions.row(v).transpose().homogeneous();
  for (int i = 0; i < modes; ++i) {
    Eigen::Map<Eigen::Vector4d>(out + 4 * i) = surface.weight(v, first_mode + i) * homogeneous;
  }
}

SurfaceBasis surface_basis(const ContactSurface& surface) {
  const Eigen::Index ns = surface.positions.rows();
  const int m = surface.modes();
  SurfaceBasis basis(ns, 4 * m);
  for (Eigen::Index v = 0; v < ns; ++v) surface_basis_row(surface, v, 0, m, &basis(v, 0));
  return basis;
}

}  // namespace smfem::contact
