"""In-container runtime. Stdlib + ray + fsspec only: it runs on a stock image without irisrl
installed, shipped with the job. Never import other irisrl packages from here."""
