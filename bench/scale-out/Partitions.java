import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * Creates TokenPulse's topics with a partition count (or raises it) on a fresh platform, before anything is published
 * (a key's partition changes with the count): {@code java -cp tokenpulse.jar Partitions.java
 * BOOTSTRAP PARTITIONS [PREFIX]}. Run as a single source file, so bench/scale-out adds no module.
 */
public final class Partitions {
    /** Topics.all()'s suffixes: the per-request ones (requests, chunks, chunk-batches) must share the count. */
    private static final List<String> TOPICS = List.of("runs", "requests", "chunks", "chunk-batches",
            "request-metrics", "window-metrics", "run-summaries", "dead-letter", "server-metrics");

    public static void main(String[] args) throws Exception {
        String prefix = args.length > 2 ? args[2] : "tokenpulse.";
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        try (Admin admin = Admin.create(props)) {
            int partitions = Integer.parseInt(args[1]);
            Set<String> existing = admin.listTopics().names().get();
            List<String> names = TOPICS.stream().map(t -> prefix + t).toList();
            // Missing ones are created here (TopicAdmin gives them their declared config when a command starts).
            admin.createTopics(names.stream()
                            .filter(t -> !existing.contains(t))
                            .map(t -> new NewTopic(t, Optional.of(partitions), Optional.empty()))
                            .toList())
                    .all()
                    .get();
            Map<String, NewPartitions> raised = names.stream()
                    .filter(existing::contains)
                    .collect(Collectors.toMap(t -> t, t -> NewPartitions.increaseTo(partitions)));
            admin.createPartitions(raised).all().get();
            System.out.println("partitions: " + names.size() + " topics have " + partitions + " partitions");
        }
    }
}
