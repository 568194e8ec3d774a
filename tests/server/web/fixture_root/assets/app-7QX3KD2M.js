document.getElementById("board").textContent = "fixture script ran";
