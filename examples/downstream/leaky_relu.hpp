#pragma once
// leaky_relu: an operator of this project's own, added to plumbline (every layer a check needs) with
// one call, without touching plumbline's tree (docs/extending.md).
void register_leaky_relu();
