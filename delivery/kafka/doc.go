// Package kafka adapts segmentio/kafka-go to the delivery engine: it
// creates the topics, publishes jobs with acknowledgement from all in-sync
// replicas, and consumes the deliveries topic and the retry tiers, handing
// jobs to the dispatcher and committing only the contiguous prefix of
// offsets whose jobs are durably done.
package kafka
