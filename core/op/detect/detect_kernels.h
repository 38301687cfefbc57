// The kernels of the detection family: X(entry point, driver of
// box_drivers.h, multibox_drivers.h or proposal_drivers.h over the loop
// policy L); from it come the CPU entry points (<name>Cpu, detect_cpu.cc)
// and the GPU ones (<name>Gpu, detect.cu).
#pragma once

#define WEFT_DETECT_KERNELS(X)          \
  X(BoxIouKernel, BoxIou<L>)            \
  X(BoxNmsKernel, BoxNms<L>)            \
  X(BoxNmsBackwardKernel, BoxNmsBackward<L>) \
  X(MultiBoxPriorKernel, MultiBoxPrior<L>) \
  X(BoxEncodeKernel, BoxEncode<L>)      \
  X(BoxDecodeKernel, BoxDecode<L>)      \
  X(MultiBoxDetectionKernel, MultiBoxDetection<L>) \
  X(BipartiteMatchingKernel, BipartiteMatching<L>) \
  X(MultiBoxTargetKernel, MultiBoxTarget<L>) \
  X(ProposalKernel, Proposal<L>)
