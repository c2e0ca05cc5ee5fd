#include "smfem/sim/reduced_system.hpp"

#include <stdexcept>

namespace smfem::sim {

ReducedSystem::ReducedSystem(const ReducedModel& model, const Dynamics& dynamics, int thread_count)
    : dynamics_(dynamics), spd_(3 * static_cast<int>(model.cubature_Y.cols())) {
  const Eigen::Index n = model.cubature_Y.cols();
  std::vector<ReducedModel::Body> bodies = model.bodies;
  if (bodies.empty()) bodies.push_back({0, model.cubature_count(), 0, model.mode_count()});
  if (bodies.size() > 255) throw std::invalid_argument("at most 255 bodies in one model");
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const ReducedModel::Body& body = bodies[b];
    assemblies_.emplace_back(model.cubature_Y.block(3 * body.first_tet, 4 * body.first_mode,
                                                    3 * body.tets, 4 * body.modes),
                             model.cubature_weights.segment(body.first_tet, body.tets),
                             thread_count);
    first_tet_.push_back(body.first_tet);
    first_row_.push_back(4 * body.first_mode);
    if (bodies.size() > 1) tet_body_.resize(tet_body_.size() + body.tets, std::uint8_t(b));
  }
  matrix_.setZero(3 * n, 3 * n);
  force_.setZero(n, 3);
  rhs_.setZero(n, 3);
  rhs_vector_.setZero(3 * n);
  solution_.setZero(3 * n);
}

void ReducedSystem::set_single_precision(bool single) {
  for (StiffnessAssembly& assembly : assemblies_) assembly.set_single_precision(single);
}

void ReducedSystem::set_thread_count(int thread_count) {
  for (StiffnessAssembly& assembly : assemblies_) assembly.set_thread_count(thread_count);
}

void ReducedSystem::assemble(parallel::ThreadPool& pool) {
  for (std::size_t b = 0; b < assemblies_.size(); ++b) {
    assemblies_[b].assemble(pool);
    force_.middleRows(first_row_[b], assemblies_[b].block_size()) = assemblies_[b].force();
  }
}

int ReducedSystem::solve(const ReducedMatrix& dynamics_gradient, ReducedMatrix& du) {
  const Eigen::Index n = rhs_.rows();
  rhs_ = -(dynamics_gradient + force_);
  const Eigen::MatrixXd& block = dynamics_.hessian_block();
  // Between bodies only contact couples (added below): zero first where there are several.
  if (assemblies_.size() > 1) matrix_.setZero();
  for (std::size_t b = 0; b < assemblies_.size(); ++b) {
    const int first = first_row_[b];
    const int size = assemblies_[b].block_size();
    assemblies_[b].add_to_lower(block.block(first, first, size, size), matrix_, first);
  }
  if (contact_ != nullptr) contact_->add_hessian_to_lower(matrix_);
  // vec(U) = u: the columns of the 4m x 3 matrices, stacked.
  rhs_vector_ = Eigen::Map<const Eigen::VectorXd>(rhs_.data(), 3 * n);
  const int shifts = spd_.solve(matrix_, rhs_vector_, solution_);
  du = Eigen::Map<const ReducedMatrix>(solution_.data(), n, 3);
  return shifts;
}

}  // namespace smfem::sim
