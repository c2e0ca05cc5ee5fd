#pragma once
// The explicit instantiations every material's .cpp provides, for float and double: expand
// SMFEM_INSTANTIATE_MATERIAL() inside the material's namespace after its definitions.
// (Header-declared templates with definitions in one .cpp keep the headers light and the
// instantiations to exactly these two scalars.)

#define SMFEM_INSTANTIATE_MATERIAL_FOR(Scalar)                                                     \
  template Scalar psi<Scalar>(const Vector6<Scalar>&, const LameParameters<Scalar>&);              \
  template Vector6<Scalar> dpsi_ds<Scalar>(const Vector6<Scalar>&, const LameParameters<Scalar>&); \
  template Matrix6<Scalar> d2psi_ds2<Scalar>(const Vector6<Scalar>&,                               \
                                             const LameParameters<Scalar>&);                       \
  template Matrix6<Scalar> d2psi_ds2_projected<Scalar>(const Vector6<Scalar>&,                     \
                                                       const LameParameters<Scalar>&);             \
  template Scalar psi<Scalar>(const Matrix3<Scalar>&, const LameParameters<Scalar>&);              \
  template Matrix3<Scalar> dpsi_dF<Scalar>(const Matrix3<Scalar>&, const LameParameters<Scalar>&); \
  template Matrix9<Scalar> d2psi_dF2<Scalar>(const Matrix3<Scalar>&,                               \
                                             const LameParameters<Scalar>&);                       \
  template Matrix9<Scalar> d2psi_dF2_projected<Scalar>(const Matrix3<Scalar>&,                     \
                                                       const LameParameters<Scalar>&);             \
  template Matrix9<Scalar> d2psi_dF2_projected<Scalar>(const polar::SignedSvd<Scalar>&,            \
                                                       const LameParameters<Scalar>&);

#define SMFEM_INSTANTIATE_MATERIAL()    \
  SMFEM_INSTANTIATE_MATERIAL_FOR(float) \
  SMFEM_INSTANTIATE_MATERIAL_FOR(double)
