package io.tokenpulse.schemas;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the pipeline's topics that do not exist yet, so a fresh cluster works without manual
 * set-up. Existing topics are left as they are (their partition counts are the operator's choice).
 */
public final class TopicAdmin {
  private TopicAdmin() {}

  /**
   * @param clientProperties Kafka client properties incl. bootstrap.servers (and SASL/SSL settings)
   * @throws IllegalStateException with one line naming the cluster when it cannot be reached in time
   */
  public static void ensureExist(Topics topics, Properties clientProperties, int partitions, short replicationFactor,
      Duration timeout) {
    Properties props = new Properties();
    props.putAll(clientProperties);
    props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
    props.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeout.toMillis(), 30_000));
    String servers = String.valueOf(props.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    try (Admin admin = Admin.create(props)) {
      Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      List<NewTopic> missing = topics.all().stream()
          .map(TopicSpec::name)
          .filter(name -> !existing.contains(name))
          .map(name -> new NewTopic(name, partitions, replicationFactor))
          .toList();
      if (missing.isEmpty()) {
        return;
      }
      try {
        admin.createTopics(missing).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        // Another process (a second load generator, the aggregator) may have created one meanwhile.
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new IllegalStateException("cannot create topics on Kafka at " + servers + ": "
              + e.getCause().getMessage(), e.getCause());
        }
      }
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka at " + servers + " did not answer within " + timeout.toSeconds()
          + " s; check --bootstrap-servers and --kafka-property security settings", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot list topics on Kafka at " + servers + ": " + e.getCause().getMessage(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    }
  }
}
