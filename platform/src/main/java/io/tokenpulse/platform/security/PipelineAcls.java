package io.tokenpulse.platform.security;

import io.tokenpulse.schemas.PipelineRole;
import io.tokenpulse.schemas.TopicSpec;
import io.tokenpulse.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The least-privilege ACLs of a secured platform (docs/security.md). {@value SaslUsers#BENCH} (used
 * by every command but {@code aggregate}) and {@value SaslUsers#AGGREGATE} get what their
 * {@link PipelineRole}s read and write, and both may describe every pipeline topic (to find them and
 * check their config). The aggregator also owns everything named after its application id: its
 * internal topics, its consumer group and its transactional ids (exactly once). Nobody may create or
 * delete the pipeline topics: the platform creates them. The shards of a sharded {@code bench} meet on
 * the shard-barrier topic, which the first of them creates: {@value SaslUsers#BENCH} may create,
 * write, read and describe that one topic. Granting is idempotent.
 */
public final class PipelineAcls {

    private PipelineAcls() {}

    /** The bindings for {@code topics} and the aggregator's {@code applicationId}. */
    public static List<AclBinding> bindings(Topics topics, String applicationId) {
        List<AclBinding> acls = new ArrayList<>();
        for (String user : List.of(SaslUsers.BENCH, SaslUsers.AGGREGATE)) {
            for (TopicSpec<?> topic : topics.all()) {
                acls.add(allow(user, topic(topic.name(), PatternType.LITERAL), AclOperation.DESCRIBE));
                acls.add(allow(user, topic(topic.name(), PatternType.LITERAL), AclOperation.DESCRIBE_CONFIGS));
            }
        }
        for (PipelineRole role : PipelineRole.values()) { // the bench user runs every command but aggregate
            if (role != PipelineRole.AGGREGATE) {
                addTopicAccess(acls, SaslUsers.BENCH, role, topics);
            }
        }
        for (AclOperation operation :
                List.of(AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.READ, AclOperation.WRITE)) {
            acls.add(allow(SaslUsers.BENCH, topic(topics.shardBarrier(), PatternType.LITERAL), operation));
        }
        addTopicAccess(acls, SaslUsers.AGGREGATE, PipelineRole.AGGREGATE, topics);
        acls.add(allow(SaslUsers.AGGREGATE, topic(applicationId, PatternType.PREFIXED), AclOperation.ALL));
        ResourcePattern group = new ResourcePattern(ResourceType.GROUP, applicationId, PatternType.PREFIXED);
        acls.add(allow(SaslUsers.AGGREGATE, group, AclOperation.READ));
        ResourcePattern transactionalIds =
                new ResourcePattern(ResourceType.TRANSACTIONAL_ID, applicationId, PatternType.PREFIXED);
        acls.add(allow(SaslUsers.AGGREGATE, transactionalIds, AclOperation.WRITE));
        acls.add(allow(SaslUsers.AGGREGATE, transactionalIds, AclOperation.DESCRIBE));
        return acls.stream().distinct().toList();
    }

    /**
     * Creates the bindings with the admin's client properties and returns once the broker enforces
     * them: the controller commits them first, and the broker applies its metadata a moment later, so a
     * client started right after {@code createAcls} returned could still be refused.
     */
    public static void grant(Properties adminProperties, Topics topics, String applicationId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(adminProperties)) {
            List<AclBinding> wanted = bindings(topics, applicationId);
            admin.createAcls(wanted).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            while (!admin.describeAcls(AclBindingFilter.ANY)
                    .values()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .containsAll(wanted)) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException();
                }
                Thread.sleep(50);
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot create the pipeline's ACLs: " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "the broker did not create the pipeline's ACLs within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating ACLs", e);
        }
    }

    private static void addTopicAccess(List<AclBinding> acls, String user, PipelineRole role, Topics topics) {
        role.reads(topics).forEach(t -> acls.add(allow(user, topic(t.name(), PatternType.LITERAL), AclOperation.READ)));
        role.writes(topics)
                .forEach(t -> acls.add(allow(user, topic(t.name(), PatternType.LITERAL), AclOperation.WRITE)));
    }

    private static ResourcePattern topic(String name, PatternType type) {
        return new ResourcePattern(ResourceType.TOPIC, name, type);
    }

    private static AclBinding allow(String user, ResourcePattern resource, AclOperation operation) {
        return new AclBinding(
                resource, new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
    }
}
