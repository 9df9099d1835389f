/* Every summary key the demo writes: X(key, group, description).  The
 * summary, summary_groups and terminology sections all come from this
 * one list. */
#ifndef NX_DEMO_SUMMARY_KEYS_H
#define NX_DEMO_SUMMARY_KEYS_H

#define DEMO_ENGINE_KEYS(X, e, E) \
	X(e##_engine_active_time, e##_engine, \
	  "Time the " E " engine was executing instructions. Units are in seconds") \
	X(e##_engine_active_time_percent, e##_engine, \
	  "Fraction of total_time the " E " engine was active") \
	X(e##_engine_instruction_count, e##_engine, \
	  "Number of instructions executed by the " E " engine") \
	X(e##_engine_instruction_time, e##_engine, \
	  "Sum of the durations of " E " engine instructions. Units are in seconds")

#define DEMO_DMA_CLASS_KEYS(X, c, G, C) \
	X(c##_dma_active_time, G, \
	  "Time at least one " C " DMA packet was in flight. Units are in seconds") \
	X(c##_dma_active_time_percent, G, \
	  "Fraction of total_time " C " DMA was active") \
	X(c##_dma_packet_count, G, "Number of " C " DMA packets") \
	X(c##_dma_packet_percent, G, \
	  "Fraction of all DMA packets that are " C) \
	X(c##_dma_size, G, "Bytes moved by " C " DMA packets") \
	X(c##_dma_size_percent, G, "Fraction of all DMA bytes moved by " C " DMA")

#define DEMO_SUMMARY_KEYS(X) \
	X(total_time, overall_stats, \
	  "Total duration of on device time for the run. Units are in seconds") \
	X(total_active_time, overall_stats, \
	  "Time at least one engine was executing an instruction. Units are in seconds") \
	X(total_active_time_percent, overall_stats, \
	  "Fraction of total_time at least one engine was active") \
	X(event_count, overall_stats, \
	  "Total number of event notifications, such as semaphore updates") \
	X(trace_count, overall_stats, \
	  "Total number of trace events, including instructions, events and DMAs") \
	X(neuroncore_cycle_count, overall_stats, \
	  "NeuronCore cycles over total_time") \
	X(model_flops, overall_stats, \
	  "Floating point operations of the model's matrix multiplications") \
	X(hardware_flops, overall_stats, \
	  "Floating point operations executed by the tensor engine, transposes included") \
	X(transpose_flops, overall_stats, \
	  "Floating point operations the tensor engine spent on transposes") \
	X(mfu_estimated_percent, overall_stats, \
	  "Model FLOPs utilization: model_flops over peak FLOPs in total_time") \
	X(hfu_estimated_percent, overall_stats, \
	  "Hardware FLOPs utilization: hardware_flops over peak FLOPs in total_time") \
	X(mfu_max_achievable_estimated_percent, overall_stats, \
	  "Upper bound on MFU given the HBM traffic (roofline)") \
	X(mfu_hlo_estimated_percent, overall_stats, \
	  "MFU computed from the FLOPs of HLO operations") \
	X(mfu_hlo_max_achievable_estimated_percent, overall_stats, \
	  "Upper bound on HLO MFU given the HBM traffic") \
	X(mfu_inst_estimated_percent, overall_stats, \
	  "MFU computed from the FLOPs of instructions") \
	X(mfu_inst_max_achievable_estimated_percent, overall_stats, \
	  "Upper bound on instruction MFU given the HBM traffic") \
	X(mbu_estimated_percent, overall_stats, \
	  "Memory bandwidth utilization: HBM bytes over peak HBM bandwidth in total_time") \
	X(mbu_min_read_util_percent, overall_stats, \
	  "HBM read bytes over peak HBM bandwidth in total_time") \
	X(mm_arithmetic_intensity, overall_stats, \
	  "Model FLOPs per byte of HBM traffic") \
	X(peak_flops_bandwidth_ratio, overall_stats, \
	  "Peak FLOP/s over peak HBM bandwidth (the roofline ridge point)") \
	X(matmul_instruction_count, overall_stats, "Number of MATMUL instructions") \
	X(activate_instruction_count, overall_stats, \
	  "Number of ACTIVATE instructions") \
	X(activate_instruction_time, overall_stats, \
	  "Time spent in ACTIVATE instructions. Units are in seconds") \
	X(hbm_read_bytes, overall_stats, "Bytes read from HBM") \
	X(hbm_write_bytes, overall_stats, "Bytes written to HBM") \
	X(sbuf_read_bytes, overall_stats, "Bytes read from the State Buffer") \
	X(sbuf_write_bytes, overall_stats, "Bytes written to the State Buffer") \
	X(psum_read_bytes, overall_stats, "Bytes read from PSUM") \
	X(psum_write_bytes, overall_stats, "Bytes written to PSUM") \
	X(psum_read_sbuf_write_bytes, overall_stats, \
	  "Bytes moved from PSUM to the State Buffer") \
	X(psum_read_sbuf_write_count, overall_stats, \
	  "Instructions that move data from PSUM to the State Buffer") \
	X(spill_save_bytes, overall_stats, \
	  "Bytes spilled from the State Buffer to device memory") \
	X(spill_reload_bytes, overall_stats, \
	  "Bytes reloaded from device memory into the State Buffer") \
	X(weight_size_bytes, overall_stats, "Size of the model weights") \
	X(inputs_and_weights_size_bytes, overall_stats, \
	  "Size of the model inputs and weights") \
	X(inputs_outputs_weights_size_bytes, overall_stats, \
	  "Size of the model inputs, outputs and weights") \
	X(input_queue_bytes, overall_stats, "Bytes moved by input DMA queues") \
	X(output_queue_bytes, overall_stats, "Bytes moved by output DMA queues") \
	X(weight_queue_bytes, overall_stats, "Bytes moved by weight DMA queues") \
	X(dma_active_time, data_movement, \
	  "Time at least one DMA packet was in flight. Units are in seconds") \
	X(dma_active_time_percent, data_movement, \
	  "Fraction of total_time DMA was active") \
	X(dma_active_cycles, data_movement, "NeuronCore cycles DMA was active") \
	X(dma_packet_time, data_movement, \
	  "Sum of the durations of DMA packets. Units are in seconds") \
	X(dma_queue_count, data_movement, "Number of DMA queues used") \
	X(dma_transfer_count, data_movement, \
	  "Number of DMA transfers (aggregated DMA rows)") \
	X(dma_transfer_total_bytes, data_movement, \
	  "Bytes moved by DMA transfers") \
	X(dma_transfer_average_bytes, data_movement, \
	  "Average size of a DMA transfer in bytes") \
	X(dma_transfer_time, data_movement, \
	  "Sum of the durations of DMA transfers. Units are in seconds") \
	DEMO_DMA_CLASS_KEYS(X, static, data_movement, "static") \
	X(dynamic_dma_active_time_percent, data_movement, \
	  "Fraction of total_time dynamic DMA was active") \
	X(dynamic_dma_packet_percent, data_movement, \
	  "Fraction of all DMA packets that are dynamic") \
	X(dynamic_dma_size_percent, data_movement, \
	  "Fraction of all DMA bytes moved by dynamic DMA") \
	DEMO_DMA_CLASS_KEYS(X, software_dynamic, software_data_movement, \
			    "software dynamic") \
	DEMO_DMA_CLASS_KEYS(X, hardware_dynamic, hardware_data_movement, \
			    "hardware dynamic") \
	DEMO_ENGINE_KEYS(X, tensor, "tensor") \
	DEMO_ENGINE_KEYS(X, vector, "vector") \
	DEMO_ENGINE_KEYS(X, scalar, "scalar") \
	DEMO_ENGINE_KEYS(X, sync, "sync") \
	DEMO_ENGINE_KEYS(X, gpsimd, "GpSimd") \
	X(cc_op_count, cc_engine, "Number of collective operations") \
	X(cc_op_time, cc_engine, \
	  "Sum of the durations of collective operations. Units are in seconds") \
	X(cc_op_active_time, cc_engine, \
	  "Time a collective operation was running. Units are in seconds") \
	X(cc_op_active_time_percent, cc_engine, \
	  "Fraction of total_time a collective operation was running") \
	X(cc_cores_instruction_count, cc_engine, \
	  "Number of instructions executed by the collective cores") \
	X(cc_cores_instruction_time, cc_engine, \
	  "Sum of the durations of collective core instructions. Units are in seconds") \
	X(cc_cores_instruction_active_time, cc_engine, \
	  "Time the collective cores were active. Units are in seconds") \
	X(cc_cores_instruction_active_time_percent, cc_engine, \
	  "Fraction of total_time the collective cores were active") \
	X(instance_type, system, "EC2 instance type of the capture") \
	X(profiler_version, system, "Version of the profiler") \
	X(runtime_version, system, "Version of the Neuron runtime") \
	X(compiler_version, system, "Version of the Neuron compiler") \
	X(driver_version, system, "Version of the Neuron driver") \
	X(collectives_version, system, "Version of the collectives library") \
	X(nc_idx, system, "NeuronCore index") \
	X(nd_idx, system, "Neuron device index") \
	X(throttle_active_nc0_time_ns, throttling_nc0, \
	  "Time NeuronCore 0 was throttled. Units are in nanoseconds") \
	X(throttle_avg_util_limit_nc0_percent, throttling_nc0, \
	  "Average utilization limit while NeuronCore 0 was throttled") \
	X(throttle_activity_0_active_time_nc0_percent, throttling_nc0, \
	  "Fraction of total_time activity monitor 0 throttled NeuronCore 0") \
	X(throttle_activity_0_avg_util_limit_nc0_percent, throttling_nc0, \
	  "Average utilization limit set by activity monitor 0 on NeuronCore 0") \
	X(throttle_unknown_active_time_nc0_percent, throttling_nc0, \
	  "Fraction of total_time NeuronCore 0 was throttled for an unknown reason") \
	X(throttle_unknown_avg_util_limit_nc0_percent, throttling_nc0, \
	  "Average utilization limit of throttling with an unknown reason on NeuronCore 0")

#endif
