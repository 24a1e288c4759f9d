package io.tokenpulse.producer;

import io.tokenpulse.producer.dataset.SampledRequest;

/**
 * One request this shard will send.
 *
 * @param index the request index: the dataset index (the sequence number in duration mode)
 * @param offsetNs when it is due, ns after the schedule start
 * @param sample what it sends
 */
record PlannedRequest(int index, long offsetNs, SampledRequest sample) {}
