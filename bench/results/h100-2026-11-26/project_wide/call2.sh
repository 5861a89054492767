set -u
B=bench/batches
LIMIT=560 bash bench/results/h100-2026-11-26/project_wide/run.sh rest $B/elementwise.batch $B/pooling.batch $B/rows.batch $B/unet_groupnorm.batch $B/transformer_gemm.batch $B/depthwise_conv.batch $B/reduced_precision.batch
cd $OUT && tar czf r.tgz rest && rm -rf rest
