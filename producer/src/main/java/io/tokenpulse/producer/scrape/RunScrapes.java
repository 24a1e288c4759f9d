package io.tokenpulse.producer.scrape;

/**
 * A run's scraping of the servers' {@code /metrics} into its records, ended by its shard just before
 * RunFinished: the last scrape then reaches Kafka ahead of RunFinished, which announces how many
 * records the scrapes published, so the aggregator's summary can wait for them.
 */
public record RunScrapes(ServerScraper scraper, ScrapeRecords records) {

    /** Takes the last scrape, stops scraping (later calls only count), and returns the records published. */
    public long finish() {
        scraper.close();
        return records.published();
    }
}
