"""Developer tools: the code generators and the kernel-cache stamp (run as ``python -m tools.<name>``)."""
