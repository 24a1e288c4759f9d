package io.tokenpulse.schemas.registry;

import java.util.List;

/**
 * Answer of a compatibility check: {@code compatible}, and the registry's reasons when it is not
 * (empty when the registry gave none).
 */
public record CompatibilityResult(boolean compatible, List<String> messages) {
    public CompatibilityResult {
        messages = List.copyOf(messages);
    }
}
