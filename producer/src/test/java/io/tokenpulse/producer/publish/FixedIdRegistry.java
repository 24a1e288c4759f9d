package io.tokenpulse.producer.publish;

import io.tokenpulse.schemas.registry.SchemaRegistry;
import java.lang.reflect.Proxy;
import java.util.OptionalInt;

/** A schema registry that gives every schema one id, for serializers in tests of the hand-written encodings. */
final class FixedIdRegistry {

    private FixedIdRegistry() {}

    static SchemaRegistry of(int id) {
        return (SchemaRegistry) Proxy.newProxyInstance(
                SchemaRegistry.class.getClassLoader(),
                new Class<?>[] {SchemaRegistry.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "register" -> id;
                    case "idOf" -> OptionalInt.of(id);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
