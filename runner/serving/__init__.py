"""Model servers `bench` launches, and the local models they serve."""
