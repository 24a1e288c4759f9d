package io.tokenpulse.producer;

import io.tokenpulse.producer.backend.Backend;
import io.tokenpulse.producer.backend.BackendSettings;
import io.tokenpulse.producer.backend.PromptRequest;
import io.tokenpulse.producer.dataset.SampledRequest;
import io.tokenpulse.producer.http.StreamRequest;

/**
 * Builds the HTTP request that asks a backend for one drawn request: the test run's, the warm-ups'
 * and every scheduled request's (each built before its send time, off the timing path).
 */
final class StreamRequests {

    private StreamRequests() {}

    /** @param model the model the request names instead of the settings' (a LoRA adapter), or null */
    static StreamRequest of(
            Backend backend, BackendSettings backendSettings, String requestId, SampledRequest sample, String model) {
        return backend.buildRequest(
                        backendSettings,
                        PromptRequest.of(requestId, sample.prompt(), sample.expectedOutputLen())
                                .withModel(model))
                .toStreamRequest();
    }
}
