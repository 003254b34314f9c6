"""The floor page of the browser benchmarks: the Gates page's kinds of element under Streamlit's
own command, without the app (``--same-elements`` of ``bench_first_paint.py`` and
``bench_interaction.py``), and the table it shares with the bare page of ``bench_interaction.py``.
Its ratio to a bare page is what Streamlit itself costs for what the Gates page shows."""

#: The table the floor page and the bare interaction page show: the Gates table's size (240 rows,
#: 9 columns), its rows and the header "stage at <version>" following the version picked
#: (``version`` is set before).
TABLE = '''\
rows = range(240)
n = int(version.split(".")[1])
table = pd.DataFrame({
    "gate": [f"FeatureGateNumber{i:03d}" for i in rows],
    "enabled": [(i + n) % 2 == 0 for i in rows],
    f"stage at {version}": [("Alpha", "Beta", "GA", "Deprecated")[(i + n) % 4] for i in rows],
    "default": [(i + n) % 3 == 0 for i in rows],
    "locked": [(i + n) % 5 == 0 for i in rows],
    "stage in 1.36": [("Beta", "GA")[i % 2] for i in rows],
    "changed vs 1.36": [(i + n) % 7 == 0 for i in rows],
    "origin": ["kube"] * 240,
    "history from": [f"1.{20 + i % 16}" for i in rows],
})
'''

SAME_ELEMENTS_APP = '''\
import pandas as pd
import streamlit as st

st.set_page_config(layout="wide")
st.html("<style>.kc-copy{float:right}</style><button class='kc-copy'>Copy link</button>")
st.title("A page with the Gates page's elements")
with st.container(border=True, horizontal=True, vertical_alignment="bottom"):
    st.selectbox("Component", ["kube-apiserver", "kube-controller-manager", "kube-scheduler"], help="What it is.")
    st.selectbox("Binary release", ["1.36", "1.35"], help="What it is.")
    st.selectbox("Patch", ["", "0", "5"], help="What it is.")
    version = st.selectbox("Emulated version", ["1.36", "1.35", "1.34", "1.33"], index=1, help="What it is.")
    st.selectbox("Min compatibility version", ["1.33", "1.34", "1.35", "1.36"], help="What it is.")
    st.text_input("--feature-gates", help="What it is.")
''' + TABLE + '''\
with st.container(horizontal=True):
    for name in (f"Enabled at {version}", "Changed vs 1.36", "Not yet introduced", "Locked"):
        st.metric(name, 12 + n, help="What it counts.")
st.pills("Quick filters", ["Alpha", "Beta", "GA", "Deprecated", "on", "off", "changed", "locked"], selection_mode="multi")
st.text_input("Search")
st.selectbox("Order", ["gate", "stage", "changed first"])
st.dataframe(table, hide_index=True, on_select="rerun", selection_mode="single-row", height=560)
st.button("Custom manifest…")
st.button("Download…")
'''
