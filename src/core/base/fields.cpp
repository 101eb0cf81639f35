#include "core/base/fields.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <vector>

#include "core/base/error.hpp"
#include "core/base/text.hpp"

namespace pipesim {

namespace {

constexpr DimSet kNum = dims(Dim::Number);
constexpr DimSet kSize = dims(Dim::Size);
constexpr DimSet kRate = dims(Dim::Rate);
// Samples/s, or steps/s ("3.45 it/s") that the loader multiplies by the batch size.
constexpr DimSet kSampleRate = Dim::SampleRate | Dim::StepRate;
constexpr DimSet kTime = dims(Dim::Duration);
constexpr DimSet kBool = dims(Dim::Bool);
constexpr DimSet kFrameRate = dims(Dim::FrameRate);

using C = Constraint;

constexpr DimSet kChoice = dims(Dim::Choice);

constexpr std::array<std::string_view, 5> kPrecisions = {"fp32", "tf32", "bf16", "fp16", "fp8"};
constexpr std::array<std::string_view, 8> kDtypes = {"uint8", "int8", "fp8", "fp16", "bf16", "fp32", "int32", "int64"};
constexpr std::array<std::string_view, 4> kTransformAt = {"cpu", "gpu", "decoder", "none"};
constexpr std::array<std::string_view, 2> kScopes = {"node", "cluster"};
constexpr std::array<std::string_view, 2> kPaddings = {"none", "longest"};
constexpr std::array<std::string_view, 3> kLoopWaits = {"spin", "sleep", "poll"};
constexpr std::array<std::string_view, 3> kCheckpointing = {"none", "selective", "full"};
// The accelerator presets' names (configs/accelerators; a unit test keeps the two in step).
constexpr std::array<std::string_view, 15> kAccelerators = {"a100-40gb-pcie",
                                                            "a100-40gb-sxm",
                                                            "a100-80gb-pcie",
                                                            "a100-80gb-sxm",
                                                            "a10g",
                                                            "b200",
                                                            "h100-pcie",
                                                            "h100-sxm",
                                                            "h200",
                                                            "l4",
                                                            "l40s",
                                                            "mi300x",
                                                            "t4",
                                                            "v100-sxm2",
                                                            "other"};
static_assert(kAccelerators[static_cast<std::size_t>(kOtherAccelerator)] == "other");

// Order here is the order of the key table (docs/manual/scenarios.md) and of JSON "inputs".
constexpr std::array<FieldSpec, kFieldCount> kFields = {{
    {Field::BatchSize, "pipeline.batch_size", kNum, C::Positive, true, "", "samples per batch on one accelerator (B)",
     "256"},
    {Field::Workers, "pipeline.workers", kNum, C::NonNegative, true, "",
     "data-loading worker processes per accelerator (W); 0 = main process does everything in turn", "8"},
    {Field::LoopOverhead, "pipeline.loop_overhead", kTime, C::NonNegative, false, "0 s",
     "the training loop's own time per step that does not overlap compute (receiving the batch, launching work, "
     "logging)"},
    {Field::ReceiveTime, "pipeline.receive_time", kTime, C::NonNegative, false, "0 s",
     "with workers, the training process's time per step to take a batch from them (receive it, map its shared "
     "memory, free the last one, send the next index); adds to pipeline.loop_overhead"},
    {Field::ReceiveTimePerSample, "pipeline.receive_time_per_sample", kTime, C::NonNegative, false, "0 s",
     "the part of pipeline.receive_time that grows with the batch, per sample"},
    {Field::WorkerBatchOverhead, "pipeline.worker_batch_overhead", kTime, C::NonNegative, false, "0 s",
     "with workers, a worker's own CPU time per batch besides its samples and the collate copy (taking the "
     "indices, creating the batch's shared memory, sending its handle)"},
    {Field::WorkerSampleOverhead, "pipeline.worker_sample_overhead", kTime, C::NonNegative, false, "0 s",
     "with workers, a worker's extra time per sample inside the loader over the same sample timed in one process "
     "(its buffers are new memory while the batch is held, the forked process's caches are cold)"},
    {Field::LoopCpuShare, "pipeline.loop_cpu_share", kNum, C::Share, false, "",
     "share of the compute time the training process keeps a core busy (1: it spins or launches work all step; "
     "0: it sleeps); set, the CPUs are shared by time with the workers instead of reserved",
     "0.3"},
    {Field::LoopWait, "pipeline.loop_wait", kChoice, C::None, false, "",
     "how the training loop waits for the accelerator: \"spin\" (it holds a core for the step), \"sleep\" or "
     "\"poll\" (it takes none); set, the CPUs are shared by time instead of one kept for the training process "
     "(pipeline.loop_cpu_share 1, 0, 0)",
     "\"spin\"", kLoopWaits},
    {Field::LaunchTime, "pipeline.launch_time", kTime, C::NonNegative, false, "0 s",
     "the training loop's CPU time per step launching the step's work while it holds the interpreter lock "
     "(Python, the framework's dispatch); overlaps compute, but takes turns with the pin thread's locked work"},
    {Field::PinLockShare, "pipeline.pin_lock_share", kNum, C::Share, false, "0",
     "share of the pin thread's work per batch during which it holds the interpreter lock, so that the loop cannot "
     "launch (receiving the batch; PyTorch releases it to pin the batch and, from 1.13, to free its shared memory): "
     "1 is an upper bound"},
    {Field::CrowdedLoopTime, "pipeline.crowded_loop_time", kTime, C::NonNegative, false, "0 s",
     "with pipeline.loop_cpu_share, the time per step the training loop loses waiting for a CPU when every CPU is "
     "busy as it takes a batch (the workers building, the pin thread copying): none up to half the CPUs busy, then "
     "in proportion up to all of them"},
    {Field::PersistentWorkers, "pipeline.persistent_workers", kBool, C::None, false, "false",
     "workers live across epochs (PyTorch persistent_workers); false starts them at every epoch"},
    {Field::WorkerStartTime, "pipeline.worker_start_time", kTime, C::NonNegative, false, "0 s",
     "time to start one worker at an epoch's start, unless persistent (the training process starts them in turn)"},
    {Field::WorkerWarmupTime, "pipeline.worker_warmup_time", kTime, C::NonNegative, false, "0 s",
     "how much longer a new worker's first batch takes than its later ones (copy-on-write faults, the transform's "
     "set-up on first use); all pay it at once, unless persistent"},
    {Field::EpochOverhead, "pipeline.epoch_overhead", kTime, C::NonNegative, false, "0 s",
     "fixed time per epoch of a loader with non-persistent workers (creating its iterator, stopping the workers)"},
    {Field::PrefetchFactor, "pipeline.prefetch_factor", kNum, C::Positive, true, "2",
     "batches each worker may hold ahead of the training loop (PyTorch prefetch_factor)"},
    {Field::ShuffleBuffer, "pipeline.shuffle_buffer", kNum, C::Positive, true, "",
     "samples each worker holds to shuffle what it reads in order (WebDataset's shuffle(n) over shards): the "
     "buffers come out of the node's page cache, and each worker fills its own before its first batch of an "
     "epoch (omit: no buffer)",
     "1000"},
    {Field::InOrder, "pipeline.in_order", kBool, C::None, false, "true",
     "the loop takes batches in the sampler's order (PyTorch in_order); false: any ready batch"},
    {Field::TargetUtilization, "pipeline.target_utilization", kNum, C::UnitInterval, false, "90%",
     "utilization the capacity answers aim for (MLPerf Storage: 90%, 70% for cosmoflow)"},
    {Field::Nodes, "cluster.nodes", kNum, C::Positive, true, "1",
     "nodes in the cluster, each with accelerator.count accelerators"},
    {Field::Reshuffle, "cluster.reshuffle", kBool, C::None, false, "true",
     "with several nodes, each epoch every node reads a different random share of the dataset (a shuffled "
     "DistributedSampler), so its page cache warms over epochs; false: each node reads the same shard every "
     "epoch, and its cache needs only that shard"},
    {Field::AcceleratorCount, "accelerator.count", kNum, C::Positive, true, "1",
     "accelerators (data-parallel replicas) per node"},
    {Field::AcceleratorType, "accelerator.type", kChoice, C::None, false, "",
     "which accelerator this is (an accelerator preset's name, or \"other\"): checked against model.measured_on",
     "\"h100-sxm\"", kAccelerators},
    {Field::PeakFlops, "accelerator.peak_flops", dims(Dim::FlopRate), C::Positive, false, "peak at model.precision",
     "peak dense FLOP rate used for compute; overrides the per-precision peaks"},
    {Field::PeakFlopsFp32, "accelerator.peak_flops_fp32", dims(Dim::FlopRate), C::Positive, false, "",
     "peak dense FP32 rate (non-tensor)", "\"67 TFLOPS\""},
    {Field::PeakFlopsTf32, "accelerator.peak_flops_tf32", dims(Dim::FlopRate), C::Positive, false, "",
     "peak dense TF32 tensor rate", "\"495 TFLOPS\""},
    {Field::PeakFlopsBf16, "accelerator.peak_flops_bf16", dims(Dim::FlopRate), C::Positive, false, "",
     "peak dense BF16 tensor rate", "\"989 TFLOPS\""},
    {Field::PeakFlopsFp16, "accelerator.peak_flops_fp16", dims(Dim::FlopRate), C::Positive, false, "",
     "peak dense FP16 tensor rate", "\"989 TFLOPS\""},
    {Field::PeakFlopsFp8, "accelerator.peak_flops_fp8", dims(Dim::FlopRate), C::Positive, false, "",
     "peak dense FP8 tensor rate", "\"1979 TFLOPS\""},
    {Field::MemoryBandwidth, "accelerator.memory_bandwidth", kRate, C::Positive, false, "",
     "accelerator memory bandwidth (weight-streaming term; omit to ignore it)", "\"3.35 TB/s\""},
    {Field::AcceleratorMemory, "accelerator.memory", kSize, C::Positive, false, "",
     "accelerator memory capacity (with model.parameters or model.activation_bytes: does the batch fit?)", "\"80 GB\""},
    {Field::Efficiency, "accelerator.efficiency", kNum, C::UnitInterval, false, "",
     "fraction of peak FLOPS reached (0 < x <= 1; \"50%\" accepted)", "0.4"},
    {Field::DispatchOverhead, "accelerator.dispatch_overhead", kTime, C::NonNegative, false, "0 s",
     "fixed launch/dispatch time per step"},
    {Field::LayerOverhead, "accelerator.layer_overhead", kTime, C::NonNegative, false, "0 s",
     "time per layer per pass-kind (x3 when training)"},
    {Field::DecoderRate, "accelerator.decoder_rate", kSampleRate, C::Positive, false, "",
     "samples/s the accelerator's hardware decoder delivers (transform.device = \"decoder\"), as measured on this "
     "kind of sample (a preset's: ImageNet JPEGs)",
     "\"3000 samples/s\""},
    {Field::DecoderEngines, "accelerator.decoder_engines", kNum, C::Positive, true, "1",
     "hardware video decoders (NVDEC engines) on one accelerator, each decoding accelerator.decoder_fps"},
    {Field::DecoderFrameRate, "accelerator.decoder_fps", kFrameRate, C::Positive, false, "",
     "frames/s one hardware decoder engine delivers at the samples' codec and resolution: with "
     "workload.frames_per_sample, the decoder's rate in place of accelerator.decoder_rate",
     "\"1000 frames/s\""},
    {Field::FlopsPerSample, "model.flops_per_sample", dims(Dim::Flop), C::Positive, false, "",
     "FLOPs of one forward pass per sample, a multiply-accumulate counted as two (\"4.09 GMAC\" is 8.18 GFLOP)",
     "\"8.18 GFLOP\""},
    {Field::Parameters, "model.parameters", kNum, C::Positive, false, "",
     "parameter count (weight-streaming term and memory footprint)", "25.6e6"},
    {Field::Precision, "model.precision", kChoice, C::None, false, "",
     "fp32, tf32, bf16, fp16 or fp8: picks the peak FLOPS and the bytes per parameter", "\"bf16\"", kPrecisions},
    {Field::BytesPerParameter, "model.bytes_per_parameter", kNum, C::Positive, false, "by precision, else 2",
     "bytes per weight (fp32/tf32 4, bf16/fp16 2, fp8 1)"},
    {Field::Training, "model.training", kBool, C::None, false, "false",
     "training (3 passes per sample, weights + gradients + optimizer state) or forward only"},
    {Field::StateBytesPerParameter, "model.state_bytes_per_parameter", kNum, C::Positive, false, "16 when training",
     "memory per parameter for weights, gradients and optimizer state (Adam, mixed precision: 16)"},
    {Field::ActivationBytes, "model.activation_bytes", kSize, C::Positive, false, "",
     "activation memory per sample of the batch in 16-bit precision (bf16 or fp16, mixed precision); doubled "
     "when model.precision is fp32 or tf32 (omit: not counted; scripts/activation-bytes measures it)",
     "\"100 MB\""},
    {Field::HiddenSize, "model.hidden_size", kNum, C::Positive, true, "",
     "a transformer's hidden size: with model.layers and model.sequence_length, the activations per token when "
     "model.activation_bytes is not given (a sample is a token)",
     "4096"},
    {Field::AttentionHeads, "model.attention_heads", kNum, C::Positive, true, "",
     "a transformer's attention heads: the attention scores kept per token without recomputation "
     "(model.activation_checkpointing = \"none\")",
     "32"},
    {Field::SequenceLength, "model.sequence_length", kNum, C::Positive, true, "",
     "tokens per sequence of a language model (its attention spans them)", "8192"},
    {Field::ActivationCheckpointing, "model.activation_checkpointing", kChoice, C::None, false, "none",
     "what a transformer keeps for its backward pass: none recomputed (every activation, the attention scores "
     "among them), selective (the attention recomputed, as FlashAttention does) or full (each layer's input "
     "alone)",
     "", kCheckpointing},
    {Field::Layers, "model.layers", kNum, C::NonNegative, true, "0", "layer count"},
    {Field::Passes, "model.passes", kNum, C::Positive, true, "3 when training, else 1",
     "passes per sample: 1 forward only, 3 training, 4 training with recomputation"},
    {Field::MeasuredOverhead, "model.measured_overhead", kTime, C::NonNegative, false, "0 s",
     "measured fixed time per step (measured form: overhead + B x per_sample)"},
    {Field::MeasuredPerSample, "model.measured_per_sample", kTime, C::NonNegative, false, "",
     "measured accelerator time per sample; when set, replaces the roofline form (0: a fixed time per step)",
     "\"0.25 ms\""},
    {Field::MeasuredOn, "model.measured_on", kChoice, C::None, false, "",
     "the accelerator the measured compute time comes from (an accelerator preset's name, or \"other\"); "
     "pipesim says so when it differs from accelerator.type",
     "\"h100-sxm\"", kAccelerators},
    {Field::StepCv, "model.step_cv", kNum, C::NonNegative, false, "0",
     "coefficient of variation of the accelerator's time per step (lognormal in simulate)"},
    {Field::SampleSize, "workload.sample_size", kSize, C::Positive, false, "",
     "bytes read from storage and transformed per sample", "\"110 KB\""},
    {Field::DeviceSampleSize, "workload.device_sample_size", kSize, C::Positive, false,
     "device_shape x device_dtype; sample_size when nothing transforms",
     "bytes per sample copied to the accelerator after a CPU transform"},
    {Field::DeviceShape,
     "workload.device_shape",
     kNum,
     C::Positive,
     true,
     "",
     "elements per sample on the device: \"3x224x224\", [3, 224, 224] or a count",
     "\"3x224x224\"",
     {},
     true},
    {Field::DeviceDtype, "workload.device_dtype", kChoice, C::None, false, "",
     "element type on the device: uint8, int8, fp8, fp16, bf16, fp32, int32 or int64", "\"uint8\"", kDtypes},
    {Field::TransformCost, "workload.transform_cost", kTime, C::Positive, false, "",
     "CPU time one worker spends per sample", "\"8 ms\""},
    {Field::FrameCost, "workload.frame_cost", kTime, C::Positive, false, "",
     "CPU time one worker spends per frame of a video sample (decode at its resolution and codec, and "
     "transform): a sample costs workload.frames_per_sample of these",
     "\"2 ms\""},
    {Field::DatasetSamples, "workload.dataset_samples", kNum, C::Positive, true, "",
     "samples per epoch (enables epoch time)", "1281167"},
    {Field::Epochs, "workload.epochs", kNum, C::Positive, true, "",
     "epochs the run trains (with workload.dataset_samples: the whole run's time and utilization, the first epoch "
     "from storage and every epoch's start included)",
     "90"},
    {Field::DatasetSize, "workload.dataset_size", kSize, C::Positive, false, "dataset_samples x sample_size",
     "bytes stored for one epoch (page-cache hit ratio)"},
    {Field::SampleSizeCv, "workload.sample_size_cv", kNum, C::NonNegative, false, "0",
     "coefficient of variation of the stored sample size (lognormal): storage reads in simulate, and the "
     "lengths workload.padding pads to the batch's longest"},
    {Field::SamplesPerShard, "workload.samples_per_shard", kNum, C::Positive, true, "",
     "samples stored together in one shard file (WebDataset, MDS, TFRecord, token shards): storage reads go by "
     "shard, or by storage.request_size pieces of one (omit: one file per sample)",
     "10000"},
    {Field::FramesPerSample, "workload.frames_per_sample", kNum, C::Positive, true, "1",
     "video frames decoded per sample (a clip): the decoder's and workload.frame_cost's work per sample"},
    {Field::Padding, "workload.padding", kChoice, C::None, false, "none",
     "samples of different lengths in one batch (speech, text): none (fixed lengths, or packed) or longest (each "
     "padded to the batch's longest, lengths spread as workload.sample_size_cv says): the device bytes, compute "
     "and activations grow by the padding",
     "", kPaddings},
    {Field::LengthBuckets, "workload.length_buckets", kNum, C::Positive, true, "1",
     "with workload.padding = \"longest\": batches drawn from this many buckets of equal share by length "
     "(bucketing), so a batch pads only to its bucket's longest"},
    {Field::TransformDevice, "transform.device", kChoice, C::None, false, "cpu",
     "where samples are decoded: cpu (workers), gpu (kernels on the accelerator), decoder (hardware decoder), none "
     "(no transform: samples reach the device as stored, e.g. token ids)",
     "", kTransformAt},
    {Field::GpuTime, "transform.gpu_time", kTime, C::NonNegative, false, "",
     "accelerator time per sample to decode on the GPU (DALI/nvJPEG), or with transform.device = \"decoder\" its "
     "GPU work after the hardware decoder (resize, augmentation; 0 s: none); adds to the compute stage",
     "\"0.1 ms\""},
    {Field::HostCost, "transform.host_cost", kTime, C::Positive, false, "",
     "CPU time per sample a worker still spends when decoding is on the accelerator (omit: not modelled)", "\"1 ms\""},
    {Field::TransformCv, "transform.cv", kNum, C::NonNegative, false, "0",
     "coefficient of variation of one sample's transform time (lognormal in simulate); with workers, the loop "
     "waits for slow batches (limit variance)"},
    {Field::PredecodedSampleSize, "predecoded.sample_size", kSize, C::Positive, false, "device sample size",
     "bytes per sample of a pre-decoded copy of the dataset"},
    {Field::PredecodedSampleRate, "predecoded.worker_sample_rate", kSampleRate, C::Positive, false, "",
     "samples/s one worker transforms from the pre-decoded copy (enables that fix)", "\"1500 samples/s\""},
    {Field::WorkerThroughput, "cpu.worker_throughput", kRate, C::Positive, false, "",
     "bytes/s of workload.sample_size one worker transforms", "\"14 MB/s\""},
    {Field::WorkerSampleRate, "cpu.worker_sample_rate", kSampleRate, C::Positive, false, "",
     "samples/s one worker transforms (alternative to cpu.worker_throughput); or it/s at the batch size, as tqdm "
     "shows",
     "\"125 samples/s\""},
    {Field::Cores, "cpu.cores", kNum, C::Positive, false, "",
     "logical CPUs (vCPUs, hardware threads) on the node, as nproc counts them, shared by its accelerators (omit for "
     "no limit)",
     "16"},
    {Field::ReservedCores, "cpu.reserved_cores", kNum, C::NonNegative, false, "accelerator.count",
     "CPUs of the node (in cpu.cores) kept for the training processes themselves, not for workers"},
    {Field::ThreadsPerCore, "cpu.threads_per_core", kNum, C::Positive, true, "1",
     "hardware threads per physical core: cpu.cores counts logical CPUs, and a core's second thread adds only "
     "cpu.smt_yield of a worker"},
    {Field::SmtYield, "cpu.smt_yield", kNum, C::UnitInterval, false, "0.3",
     "what a second hardware thread adds, as a share of a core (prior: Intel's up to 30% for Hyper-Threading; "
     "measure yours)"},
    {Field::ScalingContention, "cpu.scaling_contention", kNum, C::NonNegative, false, "0",
     "Universal Scalability Law sigma: W workers deliver W r1 / (1 + sigma (W-1) + kappa W (W-1))"},
    {Field::ScalingCoherency, "cpu.scaling_coherency", kNum, C::NonNegative, false, "0",
     "Universal Scalability Law kappa (coherency): past its peak, more workers deliver less"},
    {Field::OversubscriptionCost, "cpu.oversubscription_cost", kNum, C::NonNegative, false, "0",
     "time slicing: n tasks on C logical CPUs (n > C) each spend 1 + o (n - C) / C times the CPU on their work "
     "(switches, caches refilled); calibrate decode measures it"},
    {Field::MemcpyBandwidth, "cpu.memcpy_bandwidth", kRate, C::Positive, false, "",
     "one thread's copy rate into newly allocated shared memory, page faults included: a worker's collate and "
     "the pin thread's work unless cpu.collate_bandwidth and cpu.pin_bandwidth say otherwise; omit both: batch "
     "assembly not modelled",
     "\"3 GB/s\""},
    {Field::CollateBandwidth, "cpu.collate_bandwidth", kRate, C::Positive, false, "cpu.memcpy_bandwidth",
     "a worker's collate rate into new shared memory (bytes on the device per second of its CPU), when it differs "
     "from cpu.memcpy_bandwidth"},
    {Field::PinBandwidth, "cpu.pin_bandwidth", kRate, C::Positive, false, "cpu.memcpy_bandwidth",
     "the pin thread's rate over a batch's bytes on the device: its whole work per batch (receiving it, copying it "
     "into reused pinned memory, freeing its shared memory), when it differs from cpu.memcpy_bandwidth"},
    {Field::NodeMemory, "node.memory", kSize, C::Positive, false, "", "RAM of one node", "\"512 GB\""},
    {Field::PageCache, "node.page_cache", kSize, C::Positive, false, "node.memory",
     "RAM of one node available to cache the dataset (page cache)"},
    {Field::NetworkBandwidth, "node.network_bandwidth", kRate, C::Positive, false, "",
     "network bandwidth of one node: caps its reads from cluster storage", "\"25 Gb/s\""},
    {Field::ReadBandwidth, "storage.read_bandwidth", kRate, C::Positive, false, "",
     "aggregate storage read bandwidth (omit it, node_bandwidth and throughput_per_tib: storage not modelled)",
     "\"7 GB/s\""},
    {Field::StorageScope, "storage.scope", kChoice, C::None, false, "node",
     "node: each node has its own (local drives); cluster: one system shared by all nodes over the network", "",
     kScopes},
    {Field::NodeStorageBandwidth, "storage.node_bandwidth", kRate, C::Positive, false, "",
     "most one node can read from this storage (client limit, e.g. S3 per instance)", "\"10 GB/s\""},
    {Field::Iops, "storage.iops", kNum, C::Positive, false, "",
     "storage read requests per second (omit for no IOPS limit)", "1000000"},
    {Field::RequestSize, "storage.request_size", kSize, C::Positive, false,
     "a sample, or a shard (workload.samples_per_shard)",
     "bytes per read request: a file per sample is one request; a shard (workload.samples_per_shard) is read "
     "whole or in pieces of this size"},
    {Field::Latency, "storage.latency", kTime, C::Positive, false, "",
     "time to first byte of one request (Little's law: queue_depth requests in flight per latency)", "\"100 us\""},
    {Field::QueueDepth, "storage.queue_depth", kNum, C::Positive, false, "pipeline.workers (at least 1)",
     "outstanding requests per accelerator: a DataLoader worker reads one at a time"},
    {Field::StreamBandwidth, "storage.stream_bandwidth", kRate, C::Positive, false, "",
     "most one request streams once started (S3: about 85-90 MB/s per connection)", "\"90 MB/s\""},
    {Field::StorageCapacity, "storage.capacity", kSize, C::Positive, false, "",
     "provisioned capacity (with storage.throughput_per_tib)", "\"1.2 TiB\""},
    {Field::ThroughputPerTib, "storage.throughput_per_tib", kRate, C::Positive, false, "",
     "read bandwidth per TiB of capacity (FSx for Lustre tiers); read_bandwidth = capacity x this", "\"200 MB/s\""},
    {Field::CacheHit, "storage.cache_hit", kNum, C::HitRatio, false, "from node.page_cache",
     "fraction of reads served from page cache (0 <= x < 1), every epoch"},
    {Field::LocalCache, "storage.local_cache", kSize, C::Positive, false, "",
     "node-local cache in front of this storage (local NVMe; StreamingDataset's cache_limit), filled on first "
     "read: later epochs find what it holds of the node's share",
     "\"2 TB\""},
    {Field::StorageSharedBy, "storage.shared_by", kNum, C::Positive, true, "accelerators of the scope",
     "accelerators sharing the storage bandwidth"},
    {Field::LinkBandwidth, "link.bandwidth", kRate, C::Positive, false, "",
     "host-to-device bandwidth with pinned memory (omit: transfer not modelled)", "\"25 GB/s\""},
    {Field::PageableBandwidth, "link.pageable_bandwidth", kRate, C::Positive, false, "0.4 x link.bandwidth",
     "host-to-device bandwidth from pageable memory (used when link.pinned = false)"},
    {Field::LinkPinned, "link.pinned", kBool, C::None, false, "true",
     "pinned memory, non-blocking copy; false serialises the transfer with compute"},
    {Field::LinkSharedBy, "link.shared_by", kNum, C::Positive, true, "1", "accelerators sharing one host link"},
    {Field::PricePerHour, "cost.price_per_hour", Dim::MoneyRate | Dim::Number, C::Positive, false, "",
     "price of one node per hour (\"$32.77/h\", or a number of USD per hour)", "\"$32.77/h\""},
    {Field::PurchasePrice, "cost.purchase_price", Dim::Money | Dim::Number, C::Positive, false, "",
     "purchase price of one node (\"$250000\" or USD), spread over cost.amortization", "\"$250000\""},
    {Field::Amortization, "cost.amortization", kTime, C::Positive, false, "",
     "period the purchase price is spread over (\"3 years\")", "\"3 years\""},
}};

// spec(f) indexes kFields by f: each row must sit at its enumerator's position.
constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kFields.size(); ++i)
    if (static_cast<std::size_t>(kFields[i].field) != i) return false;
  return true;
}
static_assert(rows_in_enum_order(), "kFields rows must be in the order of enum Field");

}  // namespace

std::span<const FieldSpec> all_fields() { return kFields; }

namespace {

// A default that names other fields or says when ("0.4 x link.bandwidth", "16 when training",
// "accelerators of the scope"): a dotted key, an underscore or three words and more. Told
// apart without parsing, since every run builds the table and a failed parse is an exception.
bool prose_default(std::string_view text) {
  std::size_t words = 0;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '_') return true;
    if (c == '.' && i > 0 && i + 1 < text.size() && std::isalpha(static_cast<unsigned char>(text[i - 1])) &&
        std::isalpha(static_cast<unsigned char>(text[i + 1])))
      return true;
    const bool space = c == ' ';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words > 2;
}

}  // namespace

std::array<double, kFieldCount> parse_default_values() {
  std::array<double, kFieldCount> out{};
  out.fill(std::numeric_limits<double>::quiet_NaN());
  for (const FieldSpec& s : kFields) {
    if (s.default_text.empty() || prose_default(s.default_text)) continue;
    try {
      out[static_cast<std::size_t>(s.field)] = parse_field_value(s, s.default_text).value;
    } catch (const Error&) {
      // prose: a default that follows from other fields
    }
  }
  return out;
}

// No snapshot: a library or tool linked without the generated one (tools/snapshot_presets, which
// makes it, and a layer linked alone) parses the defaults itself. The build's snapshot, a strong
// definition, replaces this one in the binary and the tests.
[[gnu::weak]] std::span<const double> default_values_snapshot() { return {}; }

const double* fixed_default_values() {
  const std::span<const double> snapshot = default_values_snapshot();
  if (snapshot.size() == kFieldCount) return snapshot.data();
  static const std::array<double, kFieldCount> parsed = parse_default_values();
  return parsed.data();
}

std::optional<double> fixed_default(Field f) {
  const double d = fixed_default_values()[static_cast<std::size_t>(f)];
  return std::isnan(d) ? std::nullopt : std::optional<double>(d);
}

void no_fixed_default(Field f) { throw Error(fmt::format("internal: {} has no fixed default", spec(f).key)); }

namespace {
constexpr std::array kRequired = {Field::BatchSize, Field::Workers, Field::SampleSize};
}  // namespace

std::span<const Field> required_fields() { return kRequired; }

bool required(Field f) { return std::find(kRequired.begin(), kRequired.end(), f) != kRequired.end(); }

std::span<const Field> alternatives(Field f) {
  static constexpr std::array kTransformRate = {Field::WorkerThroughput, Field::WorkerSampleRate, Field::TransformCost,
                                                Field::FrameCost};
  static constexpr std::array kPrice = {Field::PricePerHour, Field::PurchasePrice};
  static constexpr std::array kDeviceBytes = {Field::DeviceSampleSize, Field::DeviceShape};
  for (Field g : kTransformRate)
    if (g == f) return kTransformRate;
  for (Field g : kPrice)
    if (g == f) return kPrice;
  for (Field g : kDeviceBytes)
    if (g == f) return kDeviceBytes;
  return {};
}

std::optional<Field> Scenario::set_alternative(Field f) const {
  for (Field alt : alternatives(f))
    if (alt != f && has(alt)) return alt;
  return std::nullopt;
}

void Scenario::set(Field f, Quantity q) {
  for (Field alt : alternatives(f))
    if (alt != f) unset(alt);
  values_[static_cast<std::size_t>(f)] = Value{q.value, q.dim, true};
  if (f == Field::MeasuredPerSample || f == Field::MeasuredOverhead) steps_.count = 0;
}

void Scenario::set_step_points(const StepPoints& p) {
  unset(Field::MeasuredPerSample);
  unset(Field::MeasuredOverhead);
  steps_ = p;
}

StepLine step_line(const StepPoints& p, double batch) {
  const auto pts = p.points();
  const StepPoint& first = pts.front();
  const StepLine proportional{0, first.seconds / first.batch};
  if (pts.size() == 1) return proportional;
  std::size_t i = 0;  // the segment [i, i + 1]: the one holding the batch, else the nearest
  while (i + 2 < pts.size() && batch > pts[i + 1].batch) ++i;
  const StepPoint& a = pts[i];
  const StepPoint& b = pts[i + 1];
  const double slope = (b.seconds - a.seconds) / (b.batch - a.batch);
  const StepLine line{a.seconds - slope * a.batch, slope};
  // Below the first point, never under its time per sample: a line steeper than that would reach
  // zero before batch 1.
  if (batch < first.batch && line.overhead < 0) return proportional;
  return line;
}

std::span<const std::string_view> accelerator_names() { return kAccelerators; }

const FieldSpec& spec(Field f) { return kFields[static_cast<std::size_t>(f)]; }

Dim first_dim(const FieldSpec& f) {
  for (unsigned d = 0; d < kDimCount; ++d)
    if (has(f.accepts, static_cast<Dim>(d))) return static_cast<Dim>(d);
  return Dim::Number;
}

double dtype_bytes(Dtype d) {
  switch (d) {
    case Dtype::Uint8:
    case Dtype::Int8:
    case Dtype::Fp8:
      return 1;
    case Dtype::Fp16:
    case Dtype::Bf16:
      return 2;
    case Dtype::Fp32:
    case Dtype::Int32:
      return 4;
    case Dtype::Int64:
      return 8;
  }
  return 4;
}

double precision_bytes(Precision p) {
  switch (p) {
    case Precision::Fp32:
    case Precision::Tf32:
      return 4;
    case Precision::Bf16:
    case Precision::Fp16:
      return 2;
    case Precision::Fp8:
      return 1;
  }
  return 4;
}

Field peak_field(Precision p) {
  switch (p) {
    case Precision::Fp32:
      return Field::PeakFlopsFp32;
    case Precision::Tf32:
      return Field::PeakFlopsTf32;
    case Precision::Bf16:
      return Field::PeakFlopsBf16;
    case Precision::Fp16:
      return Field::PeakFlopsFp16;
    case Precision::Fp8:
      return Field::PeakFlopsFp8;
  }
  return Field::PeakFlopsFp32;
}

std::string choice_names(const FieldSpec& s, std::string_view separator) {
  std::string out;
  for (auto c : s.choices) out += fmt::format("{}{}", out.empty() ? "" : separator, c);
  return out;
}

std::string_view choice_name(const FieldSpec& s, double value) {
  if (!(value >= 0) || value >= static_cast<double>(s.choices.size())) return "?";
  return s.choices[static_cast<std::size_t>(value)];
}

std::string format_value(const FieldSpec& s, double value, Dim dim) {
  if (dim == Dim::Choice) return std::string(choice_name(s, value));
  return format_compact(value, dim);
}

const FieldSpec* find_field(std::string_view key) {
  for (const auto& s : kFields)
    if (s.key == key) return &s;
  return nullptr;
}

std::string suggest_field(std::string_view key) {
  std::vector<std::string_view> keys;
  for (const auto& s : kFields) {
    keys.push_back(s.key);
    // "batch_size" alone suggests "pipeline.batch_size".
    const auto dot = s.key.find('.');
    if (s.key.substr(dot + 1) == key) return std::string(s.key);
  }
  std::string near = closest(key, keys);
  if (!near.empty()) return near;
  // "storage.bandwith": a misspelt name in a known section.
  const auto dot = key.find('.');
  if (dot == std::string_view::npos) return {};
  // Compare with each name and with its last word ("bandwidth" of "read_bandwidth").
  std::vector<std::string_view> names;
  std::vector<std::string_view> owners;
  for (const auto& s : kFields) {
    if (s.key.substr(0, s.key.find('.')) != key.substr(0, dot)) continue;
    const std::string_view name = s.key.substr(s.key.find('.') + 1);
    names.push_back(name);
    owners.push_back(s.key);
    if (const auto us = name.rfind('_'); us != std::string_view::npos) {
      names.push_back(name.substr(us + 1));
      owners.push_back(s.key);
    }
  }
  near = closest(key.substr(dot + 1), names);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == near) return std::string(owners[i]);
  return {};
}

std::string unknown_key_message(std::string_view key) {
  const std::string near = suggest_field(key);
  if (near.empty()) return fmt::format("unknown key '{}' (see `pipesim presets --keys` for the list)", echo(key));
  return fmt::format("unknown key '{}'{}", echo(key), did_you_mean(near));
}

void check_value(const FieldSpec& s, const Quantity& q) {
  if (!has(s.accepts, q.dim)) {
    throw Error(fmt::format("{}: expected {}, got {}", s.key, describe_dims(s.accepts), dim_name(q.dim)));
  }
  if (q.dim == Dim::Choice) {
    if (!(q.value >= 0 && q.value < static_cast<double>(s.choices.size()) && q.value == std::floor(q.value)))
      throw Error(fmt::format("{}: not one of its names", s.key));
    return;
  }
  if (s.constraint == Constraint::None) return;
  const double v = q.value;
  const auto shown = format_exact(v, q.dim);
  switch (s.constraint) {
    case Constraint::Positive:
      if (!(v > 0)) throw Error(fmt::format("{} must be greater than zero, got {}", s.key, shown));
      break;
    case Constraint::NonNegative:
      if (!(v >= 0)) throw Error(fmt::format("{} must not be negative, got {}", s.key, shown));
      break;
    case Constraint::UnitInterval:
      if (!(v > 0 && v <= 1)) throw Error(fmt::format("{} must be in (0, 1], got {}", s.key, shown));
      break;
    case Constraint::HitRatio:
      if (!(v >= 0 && v < 1)) throw Error(fmt::format("{} must be in [0, 1), got {}", s.key, shown));
      break;
    case Constraint::Share:
      if (!(v >= 0 && v <= 1)) throw Error(fmt::format("{} must be in [0, 1], got {}", s.key, shown));
      break;
    case Constraint::None:
      break;
  }
  if (s.integer) {
    if (v != std::floor(v)) throw Error(fmt::format("{} must be a whole number, got {}", s.key, shown));
    if (v > 1e15) throw Error(fmt::format("{} is too large (at most 1e15), got {}", s.key, shown));
  }
}

double parse_shape(const FieldSpec& s, std::string_view text) {
  double product = 1;
  std::size_t pos = 0;
  while (true) {
    const auto sep = text.find_first_of("x*", pos);
    const std::string_view part = text.substr(pos, sep == std::string_view::npos ? text.npos : sep - pos);
    Quantity dim_q;
    try {
      dim_q = parse_quantity_as(part, dims(Dim::Number));
    } catch (const Error& e) {
      throw Error(fmt::format("{}: bad shape \"{}\" (e.g. \"3x224x224\"): {}", s.key, text, e.what()));
    }
    if (!(dim_q.value >= 1) || dim_q.value != std::floor(dim_q.value))
      throw Error(
          fmt::format("{}: bad shape \"{}\": every dimension must be a whole number of at least 1", s.key, text));
    product *= dim_q.value;
    if (product > 1e15) throw Error(fmt::format("{}: the shape \"{}\" holds more than 1e15 elements", s.key, text));
    if (sep == std::string_view::npos) break;
    pos = sep + 1;
  }
  return product;
}

Quantity parse_field_value(const FieldSpec& s, std::string_view text) {
  Quantity q;
  if (!s.choices.empty()) {
    std::string_view t = text;
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    for (std::size_t i = 0; i < s.choices.size(); ++i)
      if (s.choices[i] == t) return Quantity{static_cast<double>(i), Dim::Choice};
    throw Error(
        fmt::format("{}: expected one of {}, got \"{}\"{}", s.key, choice_names(s), t, did_you_mean(t, s.choices)));
  }
  if (s.shape && text.find_first_of("x*") != std::string_view::npos) {
    q = {parse_shape(s, text), Dim::Number};
  } else if (s.accepts == dims(Dim::Bool)) {
    if (text == "true")
      q = {1, Dim::Bool};
    else if (text == "false")
      q = {0, Dim::Bool};
    else
      throw Error(fmt::format("{}: expected true or false, got \"{}\"", s.key, text));
  } else {
    try {
      q = parse_quantity_as(text, s.accepts);
    } catch (const Error& e) {
      throw Error(fmt::format("{}: {}", s.key, e.what()));
    }
  }
  check_value(s, q);
  return q;
}

}  // namespace pipesim
