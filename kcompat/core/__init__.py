"""The pure domain core: no Streamlit import anywhere below this package."""
