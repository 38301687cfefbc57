// The kernels of the optimizer updates declared in optim_single.cc and
// optim_multi.cc: X(entry point, driver of update_drivers.h over the loop
// policy L). From this list come the CPU entry points (<name>Cpu,
// update_drivers_cpu.cc) and the GPU ones (<name>Gpu, update_drivers.cu).
#pragma once

#define WEFT_OPTIM_UPDATE_KERNELS(X)                          \
  X(FtmlUpdate, ThreeStates<L, true>)                       \
  X(RmspropAlexUpdate, ThreeStates<L, false>)               \
  X(LambUpdatePhase1, LambPhase1<L, false>)                 \
  X(MpLambUpdatePhase1, LambPhase1<L, true>)                \
  X(LambUpdatePhase2, LambPhase2<L, false>)                 \
  X(MpLambUpdatePhase2, LambPhase2<L, true>)                \
  X(MpSgdUpdate, MpSgd<L, false, false>)                    \
  X(MpSgdMomUpdate, MpSgd<L, true, false>)                  \
  X(MpNagMomUpdate, MpSgd<L, true, true>)                   \
  X(MultiSgdUpdate, MultiSgd<L, false, false, false>)       \
  X(MultiSgdMomUpdate, MultiSgd<L, true, false, false>)     \
  X(MultiMpSgdUpdate, MultiSgd<L, false, true, false>)      \
  X(MultiMpSgdMomUpdate, MultiSgd<L, true, true, false>)    \
  X(PreloadedMultiSgdUpdate, MultiSgd<L, false, false, true>)     \
  X(PreloadedMultiSgdMomUpdate, MultiSgd<L, true, false, true>)   \
  X(PreloadedMultiMpSgdUpdate, MultiSgd<L, false, true, true>)    \
  X(PreloadedMultiMpSgdMomUpdate, MultiSgd<L, true, true, true>)  \
  X(MultiLarsUpdate, MultiLars<L>)                          \
  X(AdamWUpdate, AdamW<L, false>)                           \
  X(MpAdamWUpdate, AdamW<L, true>)                          \
  X(MultiAdamWUpdate, MultiAdamW<L, false>)                 \
  X(MultiMpAdamWUpdate, MultiAdamW<L, true>)                \
  X(MultiLambUpdate, MultiLamb<L, false>)                   \
  X(MultiMpLambUpdate, MultiLamb<L, true>)                  \
  X(GroupAdagradUpdate, GroupAdagrad<L>)
